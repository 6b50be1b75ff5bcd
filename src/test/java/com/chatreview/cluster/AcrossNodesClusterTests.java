package com.chatreview.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.support.Api;
import com.chatreview.support.Cluster;
import com.chatreview.support.RequiresCluster;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Two nodes on one database and one Redis, behind nginx: the limits and counts of decisions §4 hold across both, as
 * if the cluster were one node.
 */
@ExtendWith(RequiresCluster.class)
class AcrossNodesClusterTests {

    static final int REST_PER_MINUTE = 100;
    static final int AUTH_FAILURES_PER_MINUTE = 60;

    static Cluster cluster;

    @BeforeAll
    static void start() throws Exception {
        cluster = Cluster.start("across-nodes", 2, Map.of());
    }

    @AfterAll
    static void stop() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void theTenantsRestBudgetIsOneForTheWholeCluster() {
        String apiKey = cluster.newTenant("one-rest-budget");
        Api[] ways = {
            cluster.node(1).api().with("X-API-Key", apiKey),
            cluster.node(2).api().with("X-API-Key", apiKey),
            cluster.api().with("X-API-Key", apiKey)
        };
        Set<String> servedBy = new HashSet<>();
        for (int i = 1; i <= REST_PER_MINUTE; i++) {
            Api.Reply reply = ways[i % ways.length].get("/api/v1/chats/" + UUID.randomUUID());
            assertThat(reply.status()).as("request %d: %s", i, reply).isEqualTo(404);
            assertThat(reply.header("X-RateLimit-Remaining"))
                    .as("request %d counts against one budget", i)
                    .isEqualTo(Integer.toString(REST_PER_MINUTE - i));
            if (reply.header("X-Upstream") != null) {
                servedBy.add(reply.header("X-Upstream"));
            }
        }
        assertThat(servedBy).as("nginx sent requests to both nodes").hasSize(2);

        for (Api way : ways) {
            Api.Reply limited = way.post("/api/v1/chats", "{\"user_id\": \"student\"}");
            assertThat(limited.status()).as(limited.toString()).isEqualTo(429);
            assertThat(limited.json().get("code").asString()).isEqualTo("RATE_LIMITED");
            assertThat(Long.parseLong(limited.header("Retry-After"))).isBetween(1L, 60L);
            assertThat(limited.header("X-RateLimit-Remaining")).isEqualTo("0");
        }
    }

    @Test
    void anAddressFailingOnBothNodesIsSilencedOnBoth() {
        String apiKey = cluster.newTenant("failure-budget");
        String address = "192.0.2." + ThreadLocalRandom.current().nextInt(1, 255);
        Api node1 = cluster.node(1).api().with("X-Forwarded-For", address);
        Api node2 = cluster.node(2).api().with("X-Forwarded-For", address);
        for (int i = 1; i <= AUTH_FAILURES_PER_MINUTE; i++) {
            Api node = i % 2 == 0 ? node1 : node2;
            Api.Reply reply = node.with("X-API-Key", "crs_wrong-" + i).get("/api/v1/chats/" + UUID.randomUUID());
            assertThat(reply.status()).as("failure %d: %s", i, reply).isEqualTo(401);
        }

        for (Api node : new Api[] {node1, node2}) {
            Api.Reply blocked = node.with("X-API-Key", apiKey).get("/api/v1/chats/" + UUID.randomUUID());
            assertThat(blocked.status()).as(blocked.toString()).isEqualTo(429);
            assertThat(blocked.json().get("code").asString()).isEqualTo("RATE_LIMITED");
        }
        Api.Reply elsewhere = cluster.node(2).api().with("X-API-Key", apiKey).get("/api/v1/chats/" + UUID.randomUUID());
        assertThat(elsewhere.status()).as(elsewhere.toString()).isEqualTo(404);
    }
}
