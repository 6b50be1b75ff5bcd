package com.chatreview.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.support.Api;
import com.chatreview.support.ChatSocket;
import com.chatreview.support.Cluster;
import com.chatreview.support.RequiresCluster;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;

/**
 * The cluster's Redis dies and comes back, empty: meanwhile the nodes serve on their own limits, refuse honestly
 * what they cannot decide alone (a delete, a frame's place in the reply order), say so in their health, and lose
 * nothing stored; within 30 s of Redis returning all is as before, by itself.
 */
@Tag("cluster")
@ExtendWith(RequiresCluster.class)
class RedisOutageClusterTests {

    /** RedisSettings' default, which the nodes run with. */
    static final Duration REDIS_COMMAND_TIMEOUT = Duration.ofSeconds(2);

    static Cluster cluster;

    @BeforeAll
    static void start() throws Exception {
        cluster = Cluster.start("redis-outage", 2, Map.of());
    }

    @AfterAll
    static void stop() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void nodesServeWithoutRedisRefuseWhatTheyCannotDecideAndRecoverByThemselves() throws Exception {
        String apiKey = cluster.newTenant("redis-outage");
        Api node1 = cluster.node(1).api().with("X-API-Key", apiKey);
        Api node2 = cluster.node(2).api().with("X-API-Key", apiKey);
        String toDelete = Cluster.newChat(node1, "student");
        String talking = Cluster.newChat(node1, "student");

        try (ChatSocket socket = ChatSocket.connect(cluster.node(1).port(), apiKey, "student", talking)) {
            socket.awaitEvent("connection_established");

            cluster.stopRedis();

            for (Cluster.Node node : cluster.nodes()) {
                JsonNode health = await(Duration.ofSeconds(10), () -> {
                    Api.Reply reply = node.api().get("/actuator/health");
                    return reply.status() == 200
                                    && reply.json()
                                            .get("components")
                                            .get("redis")
                                            .get("status")
                                            .asString()
                                            .equals("DEGRADED")
                            ? reply.json()
                            : null;
                });
                assertThat(health.get("status").asString()).isEqualTo("DEGRADED");
                Api.Reply readiness = node.api().get("/actuator/health/readiness");
                assertThat(readiness.status()).as(readiness.toString()).isEqualTo(200);
                assertThat(node.api().get("/actuator/prometheus").text()).contains("redis_reachable 0.0");
            }

            for (Api node : new Api[] {node1, node2}) {
                Instant asked = Instant.now();
                Api.Reply read = node.get("/api/v1/chats/" + talking);
                assertThat(read.status()).as(read.toString()).isEqualTo(200);
                assertThat(read.header("X-RateLimit-Remaining")).isNotNull();
                assertThat(Duration.between(asked, Instant.now()))
                        .as("not waiting on Redis, which takes up to its command timeout")
                        .isLessThan(REDIS_COMMAND_TIMEOUT);
            }

            Api.Reply refused = node2.delete("/api/v1/chats/" + toDelete);
            assertThat(refused.status()).as(refused.toString()).isEqualTo(503);
            assertThat(refused.json().get("code").asString()).isEqualTo("SERVICE_UNAVAILABLE");
            assertThat(refused.json().get("fix").asString()).isNotBlank();
            assertThat(Long.parseLong(refused.header("Retry-After"))).isPositive();
            assertThat(node1.get("/api/v1/chats/" + toDelete).status()).isEqualTo(200);

            socket.send("{\"content\": \"asked while Redis is away\"}");
            JsonNode error = socket.awaitEvent("error");
            assertThat(error.get("error_code").asString()).isEqualTo("SERVICE_UNAVAILABLE");
            assertThat(error.get("details").get("retry_after_ms").asLong()).isPositive();
            assertThat(messageCount(node1, talking)).as("nothing stored").isZero();

            try (ChatSocket another = ChatSocket.connect(cluster.node(2).port(), apiKey, "student", talking)) {
                assertThat(another.awaitEvent("connection_established")).isNotNull();
            }

            cluster.restartRedis();
            Instant back = Instant.now();

            Api.Reply deleted = await(Duration.ofSeconds(30), () -> {
                Api.Reply reply = node2.delete("/api/v1/chats/" + toDelete);
                return reply.status() == 503 ? null : reply;
            });
            assertThat(deleted.status()).as(deleted.toString()).isEqualTo(200);
            for (Cluster.Node node : cluster.nodes()) {
                await(Duration.ofSeconds(30), () -> {
                    Api.Reply reply = node.api().get("/actuator/health");
                    return reply.json().get("status").asString().equals("UP") ? reply : null;
                });
            }
            socket.send("{\"content\": \"asked after Redis came back\"}");
            assertThat(socket.awaitEvent("message_received").get("content").asString())
                    .isEqualTo("asked after Redis came back");
            assertThat(Duration.between(back, Instant.now())).isLessThan(Duration.ofSeconds(30));
            socket.awaitReplyEnd();
            assertThat(messageCount(node1, talking)).isEqualTo(2);
        }
    }

    private static long messageCount(Api api, String chatId) {
        return api.get("/api/v1/chats/" + chatId).json().get("message_count").asLong();
    }

    private static <T> T await(Duration patience, Supplier<T> probe) throws InterruptedException {
        Instant deadline = Instant.now().plus(patience);
        while (true) {
            T answer = probe.get();
            if (answer != null) {
                return answer;
            }
            assertThat(Instant.now()).as("within %s", patience).isBefore(deadline);
            Thread.sleep(200);
        }
    }
}
