package com.chatreview.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.support.Api;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;

/**
 * A reply belongs to the chat, not to the node streaming it: a client resumes it on any node (decisions §10,
 * docs/cluster.md).
 */
@ExtendWith(RequiresCluster.class)
class ReplyAcrossNodesClusterTests {

    /** Slow enough that a reply (some 60 words) streams for seconds. */
    static final String TOKEN_DELAY = "100ms";

    /** How long a client is away before it resumes: several tokens' time. */
    static final long TOKENS_WHILE_AWAY = 1000;

    /** How long a node's hold on its chat's turn and reply outlives its last renewal. */
    static final Duration LEASE = Duration.ofSeconds(3);

    static Cluster cluster;

    @BeforeAll
    static void start() throws Exception {
        cluster = Cluster.start(
                "reply-across-nodes",
                2,
                Map.of("ASSISTANT_OFFLINETOKENDELAY", TOKEN_DELAY, "REALTIME_LANE_LEASE", LEASE.toSeconds() + "s"));
    }

    @AfterAll
    static void stop() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void aClientResumesOnTheOtherNodeWhatTheFirstIsStillStreaming() throws InterruptedException {
        String apiKey = cluster.newTenant("resume-elsewhere");
        Api api = cluster.node(1).api().with("X-API-Key", apiKey);
        String chatId = Cluster.newChat(api, "student");

        List<JsonNode> before = new ArrayList<>();
        try (ChatSocket onNode1 = ChatSocket.connect(cluster.node(1).port(), apiKey, "student", chatId)) {
            onNode1.awaitEvent("connection_established");
            onNode1.sendContent("What is a list comprehension?");
            before.add(onNode1.awaitEvent("message_received"));
            before.add(onNode1.awaitEvent("message_stream_started"));
            for (int i = 0; i < 3; i++) {
                before.add(onNode1.awaitEvent("message_stream_token"));
            }
            onNode1.abort();
        }
        Thread.sleep(TOKENS_WHILE_AWAY); // tokens stream on while the client is away
        long resumeFrom = before.getLast().get("seq").asLong();

        try (ChatSocket onNode2 = ChatSocket.to(cluster.node(2).port())
                .query("api_key", apiKey)
                .query("user_id", "student")
                .query("chat_id", chatId)
                .query("resume_from", Long.toString(resumeFrom))
                .connect()) {
            JsonNode established = onNode2.awaitEvent("connection_established");
            assertThat(established.get("last_seq").asLong())
                    .as("the chat's latest seq, given out by the other node")
                    .isGreaterThanOrEqualTo(resumeFrom);
            List<JsonNode> after = onNode2.awaitReplyEnd();

            List<JsonNode> all = new ArrayList<>(before);
            all.addAll(after);
            long seq = all.getFirst().get("seq").asLong();
            for (JsonNode event : all.subList(1, all.size())) {
                assertThat(event.get("seq").asLong())
                        .as(
                                "no event missed or repeated across the nodes: %s",
                                all.stream().map(e -> e.get("seq").asLong()).toList())
                        .isEqualTo(++seq);
            }
            JsonNode ended = after.getLast();
            assertThat(ended.get("event_type").asString()).isEqualTo("message_stream_ended");
            StringBuilder streamed = new StringBuilder();
            all.stream()
                    .filter(event -> event.get("event_type").asString().equals("message_stream_token"))
                    .forEach(token -> streamed.append(token.get("token").asString()));
            assertThat(streamed.toString())
                    .as("the tokens of both nodes make the stored reply")
                    .isEqualTo(ended.get("content").asString());
        }
    }

    @Test
    void aReplyWhoseNodeIsKilledIsAnsweredOnceByTheOther() throws Exception {
        String apiKey = cluster.newTenant("takeover");
        Api api = cluster.node(2).api().with("X-API-Key", apiKey);
        String chatId = Cluster.newChat(api, "student");
        try (ChatSocket watching = ChatSocket.connect(cluster.node(2).port(), apiKey, "teacher", chatId);
                ChatSocket asking = ChatSocket.connect(cluster.node(1).port(), apiKey, "student", chatId)) {
            watching.awaitEvent("connection_established");
            asking.awaitEvent("connection_established");
            asking.sendContent("What is a list comprehension?");
            List<JsonNode> seen = new ArrayList<>();
            seen.add(watching.awaitEvent("message_received"));
            JsonNode abandoned = watching.awaitEvent("message_stream_started");
            seen.add(abandoned);
            for (int i = 0; i < 3; i++) {
                seen.add(watching.awaitEvent("message_stream_token"));
            }

            cluster.node(1).kill();
            Instant killed = Instant.now();
            List<JsonNode> before = asking.received();
            long askerSaw = before.getLast().get("seq").asLong();
            // the asker's node is gone: it comes back on the other node, before the reply is taken over
            ChatSocket resumed = ChatSocket.to(cluster.node(2).port())
                    .query("api_key", apiKey)
                    .query("user_id", "student")
                    .query("chat_id", chatId)
                    .query("resume_from", Long.toString(askerSaw))
                    .connect();
            Instant interrupted = null;
            while (true) {
                JsonNode event = watching.next(Duration.ofSeconds(60));
                seen.add(event);
                String type = event.get("event_type").asString();
                if (type.equals("error") && interrupted == null) {
                    interrupted = Instant.now();
                }
                if (type.equals("message_stream_ended")) {
                    break;
                }
            }

            List<String> types = seen.stream()
                    .map(event -> event.get("event_type").asString())
                    .toList();
            int error = types.indexOf("error");
            assertThat(error)
                    .as("the abandoned stream ends with an error: %s", types)
                    .isPositive();
            JsonNode told = seen.get(error);
            assertThat(told.get("error_code").asString()).isEqualTo("REPLY_INTERRUPTED");
            assertThat(told.get("details").get("message_id").asString())
                    .isEqualTo(abandoned.get("message_id").asString());
            assertThat(Duration.between(killed, interrupted))
                    .as("taken over within a lease and a third of the last renewal")
                    .isLessThan(LEASE.plus(LEASE.dividedBy(3)).plusSeconds(3));
            assertThat(types.subList(1, error)).allMatch(type -> type.startsWith("message_stream_"));
            assertThat(types.get(error + 1)).isEqualTo("message_stream_started");
            assertThat(types.subList(error + 2, types.size() - 1)).containsOnly("message_stream_token");
            String answer = seen.get(error + 1).get("message_id").asString();
            assertThat(answer).isNotEqualTo(abandoned.get("message_id").asString());
            long seq = 0;
            for (JsonNode event : seen) {
                assertThat(event.get("seq").asLong()).as("seq keeps increasing").isGreaterThan(seq);
                seq = event.get("seq").asLong();
            }
            JsonNode ended = seen.getLast();
            assertThat(ended.get("message_id").asString()).isEqualTo(answer);

            Api.Reply stored = api.get("/api/v1/chats/" + chatId + "/messages?limit=100");
            assertThat(stored.status()).isEqualTo(200);
            JsonNode messages = stored.json().get("messages");
            assertThat(messages).as("the question and one answer: %s", messages).hasSize(2);
            assertThat(messages.get(1).get("id").asString()).isEqualTo(answer);
            assertThat(messages.get(1).get("content").asString())
                    .isEqualTo(ended.get("content").asString());

            List<JsonNode> afterResume = new ArrayList<>();
            try (resumed) {
                assertThat(resumed.awaitEvent("connection_established")
                                .get("last_seq")
                                .asLong())
                        .isGreaterThanOrEqualTo(askerSaw);
                while (afterResume.isEmpty()
                        || !afterResume.getLast().get("event_type").asString().equals("message_stream_ended")) {
                    afterResume.add(resumed.next(Duration.ofSeconds(60)));
                }
            }
            assertThat(afterResume)
                    .as("the asker, back on the other node, sees what the watcher saw after its last event")
                    .isEqualTo(seen.stream()
                            .filter(event -> event.get("seq").asLong() > askerSaw)
                            .toList());

            watching.sendContent("And a generator?");
            watching.awaitEvent("message_received");
            assertThat(watching.awaitReplyEnd().getLast().get("event_type").asString())
                    .as("the chat's lane is free")
                    .isEqualTo("message_stream_ended");
        } finally {
            cluster.node(1).start();
        }
    }
}
