package com.chatreview.realtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.realtime.ChatWebSocketIntegrationTests.Reply;
import com.chatreview.support.Api;
import com.chatreview.support.ChatSocket;
import com.chatreview.support.Cluster;
import com.chatreview.support.Cluster.Node;
import com.chatreview.support.RequiresCluster;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;

/**
 * Two nodes behind nginx on one database (the {@link Cluster} harness): requests are spread over both, a tenant
 * made on one is known to the other, and a WebSocket through nginx or straight to either node gets its whole
 * reply, and an upload through nginx is reviewed. Only what holds without the Redis implementations: a
 * connection's reply is produced on its own node.
 */
@Tag("cluster")
@ExtendWith(RequiresCluster.class)
class SmokeClusterTests {

    static final Duration REVIEW_PATIENCE = Duration.ofSeconds(30);

    static Cluster cluster;

    @BeforeAll
    static void start() throws Exception {
        cluster = Cluster.shared();
    }

    @Test
    void aTenantMadeOnOneNodeWorksOnBothAndNginxTakesTurns() {
        String apiKey = newTenant(cluster.node(1).admin(), "made-on-node-1");

        String chatId = Cluster.newChat(cluster.node(2).api().with("X-API-Key", apiKey), "student");

        Api throughNginx = cluster.api().with("X-API-Key", apiKey);
        List<Node> servedBy = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            Api.Reply reply = throughNginx.get("/api/v1/chats/user/student");
            assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
            assertThat(reply.json().get("chats").get(0).get("id").asString()).isEqualTo(chatId);
            servedBy.add(cluster.servedBy(reply));
        }
        assertThat(servedBy).containsAll(cluster.nodes());
        for (int i = 1; i < servedBy.size(); i++) {
            assertThat(servedBy.get(i))
                    .as("request %d after %s", i + 1, servedBy)
                    .isNotEqualTo(servedBy.get(i - 1));
        }
    }

    @Test
    void aWebSocketThroughNginxGetsItsWholeReplyAndBothNodesShowItStored() {
        String apiKey = newTenant(cluster.admin(), "through-nginx");
        Api api = cluster.api().with("X-API-Key", apiKey);
        String chatId = Cluster.newChat(api, "student");

        try (ChatSocket socket = ChatSocket.connect(cluster.port(), apiKey, "student", chatId)) {
            assertThat(socket.next().get("event_type").asString()).isEqualTo("connection_established");
            socket.sendContent("How do I add fractions?");
            Reply reply = Reply.of(socket.awaitReplyEnd());
            assertThat(reply.tokens()).isNotEmpty();
            assertThat(reply.ended().get("content").asString()).isEqualTo(reply.tokenText());
        }

        List<Node> servedBy = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            Api.Reply messages = api.get("/api/v1/chats/" + chatId + "/messages");
            assertThat(messages.status()).as(messages.toString()).isEqualTo(200);
            assertThat(messages.json().get("total").asInt()).isEqualTo(2);
            servedBy.add(cluster.servedBy(messages));
        }
        assertThat(servedBy).containsExactlyInAnyOrderElementsOf(cluster.nodes());
    }

    @Test
    void aWebSocketStraightToEachNodeGetsItsWholeReply() {
        String apiKey = newTenant(cluster.admin(), "straight-to-nodes");
        for (Node node : cluster.nodes()) {
            String chatId = Cluster.newChat(node.api().with("X-API-Key", apiKey), "student");
            try (ChatSocket socket = ChatSocket.connect(node.port(), apiKey, "student", chatId)) {
                assertThat(socket.next().get("event_type").asString())
                        .as("%s", node)
                        .isEqualTo("connection_established");
                socket.sendContent("What is a common denominator?");
                Reply reply = Reply.of(socket.awaitReplyEnd());
                assertThat(reply.ended().get("chat_id").asString()).isEqualTo(chatId);
            }
        }
    }

    @Test
    void anUploadThroughNginxIsReviewedAndItsChatLinkNamesNginx() throws InterruptedException {
        Api homework = cluster.api().with("x-tenant-api-secret", newTenant(cluster.admin(), "upload-through-nginx"));
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
        JsonNode submission = submitted.json();
        assertThat(submission.get("chatIframeUrl").asString())
                .startsWith("http://127.0.0.1:" + cluster.port() + "/chat");
        String path = "/v1/homeworks/" + homeworkId + "/submissions/"
                + submission.get("id").asString();
        Instant deadline = Instant.now().plus(REVIEW_PATIENCE);
        JsonNode current = homework.get(path).json();
        while (!current.get("status").asString().equals("reviewed")
                && Instant.now().isBefore(deadline)) {
            Thread.sleep(250);
            current = homework.get(path).json();
        }
        assertThat(current.get("status").asString()).as("%s", current).isEqualTo("reviewed");
        assertThat(current.get("grade").asString()).matches("[A-F]");
    }

    private static String created(Api.Reply reply) {
        assertThat(reply.status()).as(reply.toString()).isEqualTo(201);
        return reply.json().get("id").asString();
    }

    private static String newTenant(Api admin, String name) {
        Api.Reply tenant = admin.post("/admin/v1/tenants", "{\"name\": \"" + name + "\"}");
        assertThat(tenant.status()).as(tenant.toString()).isEqualTo(201);
        return tenant.json().get("api_key").asString();
    }
}
