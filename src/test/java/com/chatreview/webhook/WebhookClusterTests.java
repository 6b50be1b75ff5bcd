package com.chatreview.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.support.Api;
import com.chatreview.support.Cluster;
import com.chatreview.support.Eventually;
import com.chatreview.support.RequiresCluster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;

/**
 * Webhooks on two nodes: each delivery is made by one node once, and a delivery recorded before its nodes die
 * ({@code kill -9}) is made after they start again.
 */
@Tag("cluster")
@ExtendWith(RequiresCluster.class)
class WebhookClusterTests {

    static final Duration WAIT = Duration.ofSeconds(30);

    static Cluster cluster;

    @BeforeAll
    static void start() throws Exception {
        cluster = Cluster.shared();
    }

    @Test
    void eventsRecordedOnBothNodesAreDeliveredOnceEach() throws Exception {
        Api api = cluster.api().with("X-API-Key", cluster.newTenant("webhooks-once"));
        try (Receiver receiver = new Receiver()) {
            String webhook = register(api, receiver);
            int events = 20;
            for (int i = 0; i < events; i++) {
                String chat = Cluster.newChat(api, "student-" + i);
                assertThat(api.delete("/api/v1/chats/" + chat).status()).isEqualTo(200);
            }

            List<Receiver.Received> received = new ArrayList<>();
            for (int i = 0; i < events; i++) {
                received.add(receiver.next(WAIT));
            }
            // the outbox drained: every delivery marked delivered by the node that claimed it, once (a second
            // claim of one would have counted a second attempt)
            JsonNode deliveries = Eventually.value(WAIT, () -> {
                JsonNode listed = api.get("/api/v1/webhooks/" + webhook + "/deliveries?limit=100")
                        .json();
                boolean drained = listed.get("total").asInt() == events;
                for (JsonNode delivery : listed.get("deliveries")) {
                    drained &= delivery.get("status").asString().equals("delivered");
                }
                return drained ? listed.get("deliveries") : null;
            });
            for (JsonNode delivery : deliveries) {
                assertThat(delivery.get("attempts").asInt()).as("%s", delivery).isEqualTo(1);
            }
            received.addAll(receiver.drain());

            Set<String> ids = new HashSet<>();
            received.forEach(delivery -> ids.add(delivery.header("webhook-id")));
            assertThat(received).as("each event delivered once").hasSize(events);
            assertThat(ids).hasSize(events);
        }
    }

    @Test
    void aDeliveryPendingWhenBothNodesAreKilledIsMadeAfterTheyStartAgain() throws Exception {
        Api api = cluster.api().with("X-API-Key", cluster.newTenant("webhooks-kill"));
        try (Receiver receiver = new Receiver()) {
            register(api, receiver);
            receiver.answer(500);
            String chat = Cluster.newChat(api, "student");
            assertThat(api.delete("/api/v1/chats/" + chat).status()).isEqualTo(200);
            Receiver.Received refused = receiver.next(WAIT);

            cluster.node(1).kill();
            cluster.node(2).kill();
            cluster.node(1).start();
            cluster.node(2).start();

            Receiver.Received delivered = receiver.next(WAIT);
            assertThat(delivered.header("webhook-id")).isEqualTo(refused.header("webhook-id"));
            assertThat(delivered.body()).isEqualTo(refused.body());
        }
    }

    /** Registers the receiver for chat.deleted: the webhook's id. */
    private static String register(Api api, Receiver receiver) {
        Api.Reply created = api.post(
                "/api/v1/webhooks", "{\"url\": \"" + receiver.url() + "\", \"event_types\": [\"chat.deleted\"]}");
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        return created.json().get("id").asString();
    }
}
