package com.chatreview.usage;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.support.Api;
import com.chatreview.support.ChatSocket;
import com.chatreview.support.Cluster;
import com.chatreview.support.RequiresCluster;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;

/**
 * Two nodes behind nginx answering one tenant's chats at once: the usage either node reports is exactly the sum of
 * the stored replies' {@code metadata.usage}, however the replies were spread over the nodes; a budget spent on one
 * node stops new replies on both, overspent by at most the replies already under way.
 */
@Tag("cluster")
@ExtendWith(RequiresCluster.class)
class UsageClusterTests {

    static final int CHATS = 8;
    static final int FRAMES_PER_CHAT = 25;

    static Cluster cluster;

    @BeforeAll
    static void start() throws Exception {
        // the replies are counted, not watched: the offline assistant types at 1 ms a word
        cluster = Cluster.start(
                "usage-cluster",
                2,
                Map.of("RATE_LIMIT_REST_PER_MINUTE", "10000", "ASSISTANT_OFFLINETOKENDELAY", "1ms"));
    }

    @AfterAll
    static void stop() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void hundredsOfRepliesOnTwoNodesAreCountedExactly() throws Exception {
        String apiKey = cluster.newTenant("usage-both-nodes");
        Api api = cluster.node(1).api().with("X-API-Key", apiKey);
        List<String> chats = new ArrayList<>();
        for (int i = 0; i < CHATS; i++) {
            chats.add(Cluster.newChat(api, "student-" + (i % 3)));
        }

        List<Future<?>> talking = new ArrayList<>();
        try (var threads = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < CHATS; i++) {
                String chatId = chats.get(i);
                int node = 1 + i % 2;
                String user = "student-" + (i % 3);
                talking.add(threads.submit(() -> {
                    try (ChatSocket socket =
                            ChatSocket.connect(cluster.node(node).port(), apiKey, user, chatId)) {
                        socket.awaitEvent("connection_established");
                        for (int frame = 0; frame < FRAMES_PER_CHAT; frame++) {
                            socket.sendContent("Question " + frame + " in chat " + chatId);
                            socket.awaitEvent("message_received");
                            socket.awaitReplyEnd();
                        }
                    }
                    return null;
                }));
            }
        }
        for (Future<?> chat : talking) {
            chat.get();
        }

        long stored = 0;
        long replies = 0;
        for (String chatId : chats) {
            for (JsonNode message : api.get("/api/v1/chats/" + chatId + "/messages?limit=100")
                    .json()
                    .get("messages")) {
                if (message.get("sender_role").asString().equals("assistant")) {
                    stored += message.get("metadata")
                            .get("usage")
                            .get("total_tokens")
                            .asLong();
                    replies++;
                }
            }
        }
        assertThat(replies).isEqualTo((long) CHATS * FRAMES_PER_CHAT);
        assertTotals(apiKey, replies, stored);
    }

    @Test
    void aSpentBudgetStopsNewRepliesOnBothNodesOverspentByAtMostTheRepliesInFlight() throws Exception {
        JsonNode tenant = cluster.admin()
                .post("/admin/v1/tenants", "{\"name\": \"budget-both-nodes\"}")
                .json();
        String apiKey = tenant.get("api_key").asString();
        Api api = cluster.node(1).api().with("X-API-Key", apiKey);
        List<String> chats = new ArrayList<>();
        for (int i = 0; i < CHATS; i++) {
            chats.add(Cluster.newChat(api, "student-" + i));
        }
        try (ChatSocket socket = ChatSocket.connect(cluster.node(1).port(), apiKey, "student-0", chats.get(0))) {
            socket.awaitEvent("connection_established");
            socket.sendContent("How long is a reply?");
            socket.awaitReplyEnd();
        }
        long oneReply =
                api.get("/api/v1/usage/budget").json().get("used_tokens").asLong();
        long budget = oneReply * 4 * CHATS;
        Api.Reply set = cluster.admin()
                .put(
                        "/admin/v1/tenants/" + tenant.get("id").asString() + "/budget",
                        "{\"monthly_tokens\": " + budget + "}");
        assertThat(set.status()).as(set.toString()).isEqualTo(200);

        // every chat asks until it is refused, half of them on each node: up to CHATS replies under way at once
        List<Future<Integer>> talking = new ArrayList<>();
        try (var threads = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < CHATS; i++) {
                String chatId = chats.get(i);
                int node = 1 + i % 2;
                String user = "student-" + i;
                talking.add(threads.submit(() -> {
                    try (ChatSocket socket =
                            ChatSocket.connect(cluster.node(node).port(), apiKey, user, chatId)) {
                        socket.awaitEvent("connection_established");
                        for (int frame = 0; frame < 100; frame++) {
                            socket.sendContent("Question " + frame + " in chat " + chatId);
                            JsonNode last = socket.awaitReplyEnd().getLast();
                            if (last.get("event_type").asString().equals("error")) {
                                assertThat(last.get("error_code").asString()).isEqualTo("BUDGET_EXHAUSTED");
                                return frame;
                            }
                        }
                        throw new AssertionError("chat " + chatId + " was never refused");
                    }
                }));
            }
        }
        for (Future<Integer> chat : talking) {
            assertThat(chat.get()).as("replies before the refusal").isGreaterThanOrEqualTo(0);
        }

        long stored = 0;
        long replies = 0;
        long largest = 0;
        for (String chatId : chats) {
            for (JsonNode message : api.get("/api/v1/chats/" + chatId + "/messages?limit=100")
                    .json()
                    .get("messages")) {
                if (message.get("sender_role").asString().equals("assistant")) {
                    long tokens = message.get("metadata")
                            .get("usage")
                            .get("total_tokens")
                            .asLong();
                    stored += tokens;
                    largest = Math.max(largest, tokens);
                    replies++;
                }
            }
        }
        assertTotals(apiKey, replies, stored);
        assertThat(stored).as("the budget was reached").isGreaterThanOrEqualTo(budget);
        // below the budget before the reply that reached it; after that, only replies already under way: at most one
        // per chat (each chat asks again only once its reply ended), the one that reached it among them
        assertThat(stored)
                .as("spent (budget %d, largest reply %d tokens, %d chats)", budget, largest, CHATS)
                .isLessThan(budget + CHATS * largest);
        for (Cluster.Node node : cluster.nodes()) {
            try (ChatSocket socket = ChatSocket.connect(node.port(), apiKey, "student-0", chats.get(0))) {
                socket.awaitEvent("connection_established");
                socket.sendContent("One more?");
                assertThat(socket.awaitEvent("error").get("error_code").asString())
                        .as(node.toString())
                        .isEqualTo("BUDGET_EXHAUSTED");
            }
        }
    }

    private static void assertTotals(String apiKey, long replies, long stored) {
        for (Cluster.Node node : cluster.nodes()) {
            JsonNode totals = node.api()
                    .with("X-API-Key", apiKey)
                    .get("/api/v1/usage?group_by=user")
                    .json()
                    .get("totals");
            assertThat(totals.get("replies").asLong()).as(node.toString()).isEqualTo(replies);
            assertThat(totals.get("total_tokens").asLong()).as(node.toString()).isEqualTo(stored);
            assertThat(node.api()
                            .with("X-API-Key", apiKey)
                            .get("/api/v1/usage/budget")
                            .json()
                            .get("used_tokens")
                            .asLong())
                    .as(node.toString())
                    .isEqualTo(stored);
        }
    }
}
