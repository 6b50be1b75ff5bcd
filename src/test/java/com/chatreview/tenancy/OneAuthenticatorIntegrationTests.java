package com.chatreview.tenancy;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.support.Api;
import com.chatreview.support.ChatSocket;
import com.chatreview.support.IntegrationTest;
import com.chatreview.support.TestService;
import com.chatreview.support.TestTenant;
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

    @Test
    void anAddressPastItsBudgetIsStillHeardWithAKeyTheServiceKnows(TestTenant tenant) {
        String address = newAddress();
        for (int i = 0; i < 61; i++) {
            restWithWrongKey(address);
        }
        assertThat(restWithWrongKey(address).status())
                .as("a guess from the spent address")
                .isEqualTo(429);

        // a teacher behind the same school address, with a valid key never used before from anywhere
        Api.Reply chats =
                tenant.chats().with("X-Forwarded-For", address).post("/api/v1/chats", "{\"user_id\": \"teacher\"}");
        assertThat(chats.status()).as("REST with a valid key").isEqualTo(201);
        String chatId = chats.json().get("id").asString();
        assertThat(tenant.chats()
                        .with("X-Forwarded-For", address)
                        .get("/api/v1/chats/" + chatId)
                        .status())
                .as("again, now a key checked lately")
                .isEqualTo(200);
        assertThat(tenant.homework()
                        .with("X-Forwarded-For", address)
                        .get("/v1/homeworks")
                        .status())
                .as("the homework header")
                .isEqualTo(200);
        try (ChatSocket socket = ChatSocket.to(service.port())
                .header("X-Forwarded-For", address)
                .query("api_key", tenant.apiKey())
                .query("user_id", "teacher")
                .query("chat_id", chatId)
                .connect()) {
            assertThat(socket.next().get("event_type").asString())
                    .as("the WebSocket with a valid key")
                    .isEqualTo("connection_established");
        }
        assertThat(restWithWrongKey(address).status())
                .as("and guesses still refused")
                .isEqualTo(429);
    }

    @Test
    void aChatLinkKnownToBeValidIsHeardFromASpentAddressAndGuessedLinksAreNot(TestTenant tenant) {
        String chatId = tenant.chats()
                .post("/api/v1/chats", "{\"user_id\": \"student\"}")
                .json()
                .get("id")
                .asString();
        String elsewhere = newAddress();
        assertThat(service.api()
                        .with("X-Forwarded-For", elsewhere)
                        .get("/chat-ui/api/chats/" + chatId)
                        .status())
                .as("the link opened once, from anywhere")
                .isEqualTo(200);

        String address = newAddress();
        for (int i = 0; i < 61; i++) {
            restWithWrongKey(address);
        }
        Api fromThere = service.api().with("X-Forwarded-For", address);
        assertThat(fromThere.get("/chat-ui/api/chats/" + chatId).status())
                .as("the known link's page from the spent address")
                .isEqualTo(200);
        try (ChatSocket page = ChatSocket.to(service.port())
                .path("/ws/chat-ui")
                .header("X-Forwarded-For", address)
                .query("chat_id", chatId)
                .connect()) {
            assertThat(page.next().get("event_type").asString()).isEqualTo("connection_established");
        }
        assertThat(fromThere
                        .get("/chat-ui/api/chats/" + java.util.UUID.randomUUID())
                        .status())
                .as("a guessed link from the spent address")
                .isEqualTo(429);
        try (ChatSocket guess = ChatSocket.to(service.port())
                .path("/ws/chat-ui")
                .header("X-Forwarded-For", address)
                .query("chat_id", java.util.UUID.randomUUID().toString())
                .connect()) {
            assertThat(guess.next().get("error_code").asString()).isEqualTo("RATE_LIMITED");
            assertThat(guess.awaitClose()).isEqualTo(4429);
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
