package com.chatreview.tenancy;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.support.Api;
import com.chatreview.support.ChatSocket;
import com.chatreview.support.IntegrationTest;
import com.chatreview.support.TestService;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Every way in spends one budget of failed authentications per client address: past 60 in a minute the address is
 * refused before any key is looked at, over REST (429) and over the WebSocket alike ({@code RATE_LIMITED}, 4429).
 */
@IntegrationTest
class OneAuthenticatorIntegrationTests {

    TestService service;

    @BeforeEach
    void service(TestService service) {
        this.service = service;
    }

    @Test
    void wrongKeysOverTheWebSocketRunOutTheAddressesBudget() {
        String address = newAddress();
        for (int i = 0; i < 60; i++) {
            try (ChatSocket socket = wrongKey(address, i)) {
                assertThat(socket.next().get("error_code").asString()).isEqualTo("AUTH_ERROR");
                assertThat(socket.awaitClose()).isEqualTo(4401);
            }
        }

        try (ChatSocket socket = wrongKey(address, 60)) {
            JsonNode refused = socket.next();
            assertThat(refused.get("error_code").asString()).isEqualTo("RATE_LIMITED");
            assertThat(refused.get("details").get("retry_after_ms").asLong()).isPositive();
            assertThat(refused.get("details").get("fix").asString()).isNotBlank();
            assertThat(socket.awaitClose()).isEqualTo(4429);
        }
        assertThat(restWithWrongKey(address).status())
                .as("REST from the same address")
                .isEqualTo(429);
    }

    @Test
    void restAndTheWebSocketShareOneBudget() {
        String address = newAddress();
        for (int i = 0; i < 30; i++) {
            assertThat(restWithWrongKey(address).status()).isEqualTo(401);
            try (ChatSocket socket = wrongKey(address, i)) {
                assertThat(socket.awaitClose()).isEqualTo(4401);
            }
        }

        assertThat(restWithWrongKey(address).status()).isEqualTo(429);
        try (ChatSocket socket = wrongKey(address, 99)) {
            assertThat(socket.next().get("error_code").asString()).isEqualTo("RATE_LIMITED");
            assertThat(socket.awaitClose()).isEqualTo(4429);
        }
    }

    private ChatSocket wrongKey(String address, int i) {
        return ChatSocket.to(service.port())
                .header("X-Forwarded-For", address)
                .query("api_key", "crs_not-a-key-" + i)
                .query("user_id", "guesser")
                .query("chat_id", "00000000-0000-0000-0000-000000000000")
                .connect();
    }

    private Api.Reply restWithWrongKey(String address) {
        return service.api()
                .with("X-Forwarded-For", address)
                .with("X-API-Key", "crs_not-a-key")
                .get("/api/v1/chats/user/guesser");
    }

    private static String newAddress() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        return "10.77." + random.nextInt(256) + "." + random.nextInt(1, 255);
    }
}
