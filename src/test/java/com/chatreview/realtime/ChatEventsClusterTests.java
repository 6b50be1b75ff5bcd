package com.chatreview.realtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.support.Api;
import com.chatreview.support.ChatSocket;
import com.chatreview.support.Cluster;
import com.chatreview.support.RequiresCluster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;

/**
 * Two nodes with Redis behind nginx: every event of a chat reaches every connection on the chat, whichever node it
 * is on and whichever node produced the event, in {@code seq} order, each once: the same list on every socket.
 */
@Tag("cluster")
@ExtendWith(RequiresCluster.class)
class ChatEventsClusterTests {

    static Cluster cluster;

    @BeforeAll
    static void start() throws Exception {
        cluster = Cluster.shared();
    }

    @Test
    void aFrameOnEitherNodeReachesTheChatsConnectionsOnBoth() {
        String apiKey = cluster.newTenant("frames-both-nodes");
        String chatId = Cluster.newChat(cluster.node(1).api().with("X-API-Key", apiKey), "student");

        try (ChatSocket onNode1 = ChatSocket.connect(cluster.node(1).port(), apiKey, "student", chatId);
                ChatSocket onNode2 = ChatSocket.connect(cluster.node(2).port(), apiKey, "teacher", chatId);
                ChatSocket pageOnNode2 = ChatSocket.to(cluster.node(2).port())
                        .path("/ws/chat-ui")
                        .query("chat_id", chatId)
                        .connect();
                ChatSocket throughNginx = ChatSocket.connect(cluster.port(), apiKey, "student", chatId)) {
            List<ChatSocket> sockets = List.of(onNode1, onNode2, pageOnNode2, throughNginx);
            for (ChatSocket socket : sockets) {
                socket.awaitEvent("connection_established");
            }

            onNode1.sendContent("Asked on node 1");
            List<List<String>> first = new ArrayList<>();
            for (ChatSocket socket : sockets) {
                first.add(sequence(replyEvents(socket)));
            }
            onNode2.sendContent("Asked on node 2");
            List<List<String>> second = new ArrayList<>();
            for (ChatSocket socket : sockets) {
                second.add(sequence(replyEvents(socket)));
            }

            for (List<List<String>> reply : List.of(first, second)) {
                assertThat(reply.getFirst()).first().asString().contains("message_received");
                assertThat(reply.getFirst()).last().asString().contains("message_stream_ended");
                assertThat(reply.getFirst().size()).isGreaterThan(3);
                for (List<String> seen : reply) {
                    assertThat(seen).isEqualTo(reply.getFirst());
                }
            }
            assertThat(seqOf(second.getFirst().getFirst()))
                    .as("the second reply numbered after the first, though another node produced it")
                    .isGreaterThan(seqOf(first.getFirst().getLast()));
        }
    }

    @Test
    void framesForOneChatOnBothNodesAreAnsweredOneAtATimeEachOnce() {
        String apiKey = cluster.newTenant("one-lane");
        Api api = cluster.node(2).api().with("X-API-Key", apiKey);
        String chatId = Cluster.newChat(api, "student");

        try (ChatSocket onNode1 = ChatSocket.connect(cluster.node(1).port(), apiKey, "student", chatId);
                ChatSocket onNode2 = ChatSocket.connect(cluster.node(2).port(), apiKey, "teacher", chatId)) {
            onNode1.awaitEvent("connection_established");
            onNode2.awaitEvent("connection_established");
            List<String> sent = new ArrayList<>();
            for (int i = 1; i <= 3; i++) {
                for (ChatSocket socket : List.of(onNode1, onNode2)) {
                    String content = (socket == onNode1 ? "node 1, frame " : "node 2, frame ") + i;
                    socket.send("{\"content\": \"" + content + "\", \"client_message_id\": \"" + content + "\"}");
                    sent.add(content);
                }
            }

            List<JsonNode> seen1 = untilReplies(onNode1, sent.size());
            List<JsonNode> seen2 = untilReplies(onNode2, sent.size());

            assertThat(sequence(seen1)).isEqualTo(sequence(seen2));
            List<String> asked = new ArrayList<>();
            String streaming = null;
            long lastSeq = 0;
            for (JsonNode event : seen1) {
                assertThat(event.get("seq").asLong())
                        .as("seq strictly increases")
                        .isGreaterThan(lastSeq);
                lastSeq = event.get("seq").asLong();
                String type = event.get("event_type").asString();
                String messageId = event.get("message_id").asString();
                switch (type) {
                    case "message_received" -> {
                        assertThat(streaming)
                                .as("a question while %s streams", streaming)
                                .isNull();
                        asked.add(event.get("content").asString());
                    }
                    case "message_stream_started" -> {
                        assertThat(streaming)
                                .as("a reply started while %s streams", streaming)
                                .isNull();
                        streaming = messageId;
                    }
                    case "message_stream_token" -> assertThat(messageId).isEqualTo(streaming);
                    case "message_stream_ended" -> {
                        assertThat(messageId).isEqualTo(streaming);
                        streaming = null;
                    }
                    default -> throw new AssertionError("Unexpected event " + event);
                }
            }
            assertThat(asked).as("each frame answered once").containsExactlyInAnyOrderElementsOf(sent);

            Api.Reply stored = api.get("/api/v1/chats/" + chatId + "/messages?limit=100");
            assertThat(stored.status()).isEqualTo(200);
            List<String> roles = new ArrayList<>();
            stored.json()
                    .get("messages")
                    .forEach(message -> roles.add(message.get("sender_role").asString()));
            assertThat(roles).hasSize(2 * sent.size());
            for (int i = 0; i < roles.size(); i++) {
                assertThat(roles.get(i)).as("message %d of %s", i, roles).isEqualTo(i % 2 == 0 ? "user" : "assistant");
            }
        }
    }

    /** The socket's events of the chat's sequence until {@code replies} replies have ended. */
    private static List<JsonNode> untilReplies(ChatSocket socket, int replies) {
        List<JsonNode> events = new ArrayList<>();
        int ended = 0;
        while (ended < replies) {
            JsonNode event = socket.next(Duration.ofSeconds(60));
            if (!event.has("seq")) {
                assertThat(event.get("event_type").asString()).as("%s", event).isEqualTo("user_created");
                continue;
            }
            events.add(event);
            if (event.get("event_type").asString().equals("message_stream_ended")) {
                ended++;
            }
        }
        return events;
    }

    @Test
    void aReviewStreamsLiveToASocketOnEachNode() {
        Api homework = cluster.api().with("x-tenant-api-secret", cluster.newTenant("review-both-nodes"));
        String courseId = created(homework.post("/v1/courses", "{\"teacherId\": \"t-1\", \"name\": \"Python\"}"));
        String homeworkId = created(homework.post("/v1/homeworks", """
                {"teacherId": "t-1", "courseId": "%s", "assignmentId": "add-1",
                 "files": [{"fileType": "task", "fileName": "task.md", "content": "Write add(a, b)."}]}""".formatted(courseId)));
        Api.Reply submitted = homework.upload(
                "/v1/homeworks/" + homeworkId + "/submissions",
                new Api.Multipart()
                        .field("studentId", "student-1")
                        .file("main.py", "def add(a, b):\n    return a + b\n"));
        assertThat(submitted.status()).as(submitted.toString()).isEqualTo(201);
        String chatId = submitted.json().get("chatId").asString();

        try (ChatSocket onNode1 = page(cluster.node(1).port(), chatId);
                ChatSocket onNode2 = page(cluster.node(2).port(), chatId)) {
            List<String> seen1 = sequence(untilReviewEnds(onNode1));
            List<String> seen2 = sequence(untilReviewEnds(onNode2));

            assertThat(seen1).anyMatch(event -> event.contains("message_stream_token"));
            assertThat(seen2).anyMatch(event -> event.contains("message_stream_token"));
            // each socket joined at its own moment: from the later start on, both saw the same events
            long from = Math.max(seqOf(seen1.getFirst()), seqOf(seen2.getFirst()));
            assertThat(seen1.stream().filter(event -> seqOf(event) >= from).toList())
                    .isEqualTo(
                            seen2.stream().filter(event -> seqOf(event) >= from).toList());
        }
    }

    /** The chat page's socket (the review chat's owner, by its link), live from now on. */
    private static ChatSocket page(int port, String chatId) {
        ChatSocket socket =
                ChatSocket.to(port).path("/ws/chat-ui").query("chat_id", chatId).connect();
        socket.awaitEvent("connection_established");
        return socket;
    }

    /** The socket's events of the chat's sequence until the review's reply has ended. */
    private static List<JsonNode> untilReviewEnds(ChatSocket socket) {
        List<JsonNode> events = new ArrayList<>();
        while (true) {
            JsonNode event = socket.next(Duration.ofSeconds(60));
            if (event.has("seq")) {
                events.add(event);
            }
            String type = event.get("event_type").asString();
            if (type.equals("message_stream_ended") || type.equals("error")) {
                return events;
            }
        }
    }

    /** The events of the next reply: from its message_received to its message_stream_ended. */
    private static List<JsonNode> replyEvents(ChatSocket socket) {
        List<JsonNode> events = new ArrayList<>();
        events.add(socket.awaitEvent("message_received"));
        events.addAll(socket.awaitReplyEnd());
        return events;
    }

    /** Each event as {@code seq event_type message_id}. */
    private static List<String> sequence(List<JsonNode> events) {
        return events.stream()
                .map(event -> event.get("seq").asLong() + " "
                        + event.get("event_type").asString() + " "
                        + event.get("message_id").asString())
                .toList();
    }

    private static long seqOf(String event) {
        return Long.parseLong(event.substring(0, event.indexOf(' ')));
    }

    private static String created(Api.Reply reply) {
        assertThat(reply.status()).as(reply.toString()).isEqualTo(201);
        return reply.json().get("id").asString();
    }
}
