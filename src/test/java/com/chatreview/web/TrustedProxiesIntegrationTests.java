package com.chatreview.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.support.IntegrationTest;
import com.chatreview.support.TestService;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code X-Forwarded-For} names the client only when the connection comes from a trusted proxy (the tests trust
 * 127.0.0.1): from anywhere else a client that makes up a new address for each wrong key still spends one budget.
 */
@IntegrationTest
class TrustedProxiesIntegrationTests {

    TestService service;

    @BeforeEach
    void service(TestService service) {
        this.service = service;
    }

    @Test
    void aClientThatIsNoTrustedProxyCannotChooseItsAddress() throws Exception {
        List<Integer> statuses = wrongKeys(untrustedLoopback(), 100, randomPrefix());

        assertThat(statuses.subList(0, 60)).containsOnly(401);
        assertThat(statuses.subList(60, 100))
                .as("past the budget of one address")
                .containsOnly(429);
    }

    @Test
    void aTrustedProxyNamesTheClientsAddress() throws Exception {
        List<Integer> statuses = wrongKeys(InetAddress.getByName("127.0.0.1"), 100, randomPrefix());

        assertThat(statuses).as("a budget per forwarded address").containsOnly(401);
    }

    /**
     * A loopback address of this run's own: the failure budgets live in the shared Redis for a minute, so a fixed
     * one would find its budget spent by the run before (the other database's, or another worktree's).
     */
    private static InetAddress untrustedLoopback() throws Exception {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        return InetAddress.getByAddress(new byte[] {
            127, (byte) random.nextInt(1, 255), (byte) random.nextInt(256), (byte) random.nextInt(1, 255)
        });
    }

    /** Forwarded client addresses of this run's own, for the same reason. */
    private static String randomPrefix() {
        return "10." + ThreadLocalRandom.current().nextInt(256) + ".";
    }

    /** Wrong keys from the given local address, each forwarded for another client address. */
    private List<Integer> wrongKeys(InetAddress from, int count, String forwardedPrefix) throws Exception {
        List<Integer> statuses = new ArrayList<>();
        try (HttpClient client = HttpClient.newBuilder().localAddress(from).build()) {
            for (int i = 0; i < count; i++) {
                HttpRequest request = HttpRequest.newBuilder(
                                URI.create("http://127.0.0.1:" + service.port() + "/api/v1/chats/user/someone"))
                        .header("X-API-Key", "crs_wrong-key-" + i)
                        .header("X-Forwarded-For", forwardedPrefix + (i / 250) + "." + (i % 250 + 1))
                        .GET()
                        .build();
                statuses.add(client.send(request, HttpResponse.BodyHandlers.discarding())
                        .statusCode());
            }
        }
        return statuses;
    }
}
