package com.chatreview.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.support.Api;
import com.chatreview.support.ChatSocket;
import com.chatreview.support.Cluster;
import com.chatreview.support.RequiresCluster;
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

    static Cluster cluster;

    @BeforeAll
    static void start() throws Exception {
        cluster = Cluster.start("reply-across-nodes", 2, Map.of("ASSISTANT_OFFLINETOKENDELAY", TOKEN_DELAY));
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
}
