package com.chatreview.realtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.support.Api;
import com.chatreview.support.ChatSocket;
import com.chatreview.support.ServiceProcess;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * A storm of handshakes on a node that admits few at once (docs/api.md, The WebSocket): the ones it cannot take now are told
 * {@code SERVICE_UNAVAILABLE} with {@code retry_after_ms} and closed with 1013, never 1011; a client following the
 * documented policy (retry_after_ms ± 50 %, then doubling, at most 6 tries) gets in. Not an {@code
 * *IntegrationTests} class: it runs the service in its own JVM, once.
 */
@Tag("process")
class HandshakeStormTests {

    static final int CLIENTS = 60;
    static ServiceProcess service;

    @BeforeAll
    static void prepare() throws IOException, InterruptedException {
        service = new ServiceProcess(
                "handshake-storm",
                Map.of(
                        "REALTIME_HANDSHAKE_CONCURRENCY",
                        "1",
                        "REALTIME_HANDSHAKE_WAIT",
                        "1ms",
                        "LIMIT_WS_CONNECTIONS_PER_TENANT",
                        "200"));
        service.start();
    }

    @AfterAll
    static void stopEverything() throws IOException {
        service.close();
    }

    @Test
    void turnedAwayHandshakesAreToldWhenToComeBackAndAllGetIn() throws Exception {
        int port = service.port();
        String apiKey = service.newTenant("storm");
        Api api = new Api(port).with("X-API-Key", apiKey);
        String chatId = api.post("/api/v1/chats", "{\"user_id\": \"student\"}")
                .json()
                .get("id")
                .asString();

        AtomicInteger turnedAway = new AtomicInteger();
        Map<Integer, Integer> closeCodes = new ConcurrentHashMap<>();
        List<Throwable> failures = new ArrayList<>();
        List<ChatSocket> established = new ArrayList<>();
        List<Thread> clients = new ArrayList<>();
        for (int i = 0; i < CLIENTS; i++) {
            clients.add(Thread.ofVirtual().start(() -> {
                try {
                    ChatSocket socket = connectFollowingThePolicy(port, apiKey, chatId, turnedAway, closeCodes);
                    synchronized (established) {
                        established.add(socket);
                    }
                } catch (Throwable e) {
                    synchronized (failures) {
                        failures.add(e);
                    }
                }
            }));
        }
        for (Thread client : clients) {
            client.join(Duration.ofSeconds(60));
        }
        try {
            assertThat(failures).isEmpty();
            assertThat(established).hasSize(CLIENTS);
            assertThat(turnedAway.get())
                    .as("the storm was more than the node admits at once")
                    .isPositive();
            assertThat(closeCodes.keySet()).as("turned away with 1013 only").containsOnly(1013);
        } finally {
            established.forEach(ChatSocket::close);
        }
    }

    /** retry_after_ms ± 50 %, then doubling, at most 30 s and 6 tries. */
    private static ChatSocket connectFollowingThePolicy(
            int port, String apiKey, String chatId, AtomicInteger turnedAway, Map<Integer, Integer> closeCodes)
            throws InterruptedException {
        long wait = 0;
        for (int attempt = 1; attempt <= 6; attempt++) {
            ChatSocket socket = ChatSocket.connect(port, apiKey, "student", chatId);
            JsonNode first = socket.next(Duration.ofSeconds(20));
            if (first.get("event_type").asString().equals("connection_established")) {
                return socket;
            }
            assertThat(first.get("error_code").asString()).isEqualTo("SERVICE_UNAVAILABLE");
            long retryAfter = first.get("details").get("retry_after_ms").asLong();
            assertThat(retryAfter).isPositive();
            closeCodes.merge(socket.awaitClose(), 1, Integer::sum);
            turnedAway.incrementAndGet();
            wait = wait == 0 ? retryAfter : Math.min(30_000, wait * 2);
            Thread.sleep((long) (wait * ThreadLocalRandom.current().nextDouble(0.5, 1.5)));
        }
        throw new AssertionError("not admitted within 6 tries");
    }
}
