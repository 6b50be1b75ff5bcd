package com.chatreview.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.support.ChatSocket;
import com.chatreview.support.Cluster;
import com.chatreview.support.RequiresCluster;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;

/** A node that dies without a word (SIGKILL) does not keep its connections' slots beyond their lease. */
@Tag("cluster")
@ExtendWith(RequiresCluster.class)
class NodeDeathClusterTests {

    static final int CONNECTIONS_PER_TENANT = 6;
    static final Duration LEASE = Duration.ofSeconds(3);

    static Cluster cluster;

    @BeforeAll
    static void start() throws Exception {
        cluster = Cluster.start(
                "node-death",
                2,
                Map.of(
                        "LIMIT_WS_CONNECTIONS_PER_TENANT",
                        Integer.toString(CONNECTIONS_PER_TENANT),
                        "REALTIME_CONNECTION_LEASE",
                        LEASE.toSeconds() + "s"));
    }

    @AfterAll
    static void stop() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void aKilledNodesSlotsLapseWithinALease() throws Exception {
        String apiKey = cluster.newTenant("killed-node");
        String chatId = Cluster.newChat(cluster.node(1).api().with("X-API-Key", apiKey), "student");
        List<ChatSocket> onNode2 = new ArrayList<>();
        try {
            for (int i = 0; i < CONNECTIONS_PER_TENANT; i++) {
                ChatSocket socket = ChatSocket.connect(cluster.node(2).port(), apiKey, "student", chatId);
                onNode2.add(socket);
                socket.awaitEvent("connection_established");
            }
            Thread.sleep(LEASE.toMillis() * 2);
            try (ChatSocket refused = ChatSocket.connect(cluster.node(1).port(), apiKey, "student", chatId)) {
                assertThat(refused.awaitEvent("error").get("error_code").asString())
                        .as("the living node renews the slots past their first lease")
                        .isEqualTo("CONNECTION_LIMIT_EXCEEDED");
            }

            cluster.node(2).kill();
            Instant killed = Instant.now();

            Instant deadline = killed.plus(LEASE).plusSeconds(3);
            while (true) {
                try (ChatSocket socket = ChatSocket.connect(cluster.node(1).port(), apiKey, "student", chatId)) {
                    JsonNode first = socket.next();
                    if (first.get("event_type").asString().equals("connection_established")) {
                        break;
                    }
                    assertThat(first.get("error_code").asString()).isEqualTo("CONNECTION_LIMIT_EXCEEDED");
                }
                assertThat(Instant.now()).as("the dead node's slots lapsed").isBefore(deadline);
                Thread.sleep(200);
            }
            assertThat(Duration.between(killed, Instant.now())).isLessThanOrEqualTo(LEASE.plusSeconds(3));
        } finally {
            onNode2.forEach(ChatSocket::abort);
            cluster.node(2).start();
        }
    }
}
