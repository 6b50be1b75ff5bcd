package com.chatreview.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.support.Api;
import com.chatreview.support.ChatSocket;
import com.chatreview.support.Cluster;
import com.chatreview.support.Eventually;
import com.chatreview.support.RequiresCluster;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;

/**
 * Two nodes on one database and one Redis, behind nginx: the limits and counts of docs/api.md, Rate limits hold across both, as
 * if the cluster were one node.
 */
@Tag("cluster")
@ExtendWith(RequiresCluster.class)
class AcrossNodesClusterTests {

    static final int REST_PER_MINUTE = 100;
    static final int AUTH_FAILURES_PER_MINUTE = 60;
    static final int CONNECTIONS_PER_TENANT = 50;
    /** TenancySettings' default: how long a node trusts a key it checked. */
    static final Duration KEY_CACHE_TTL = Duration.ofSeconds(5);

    static Cluster cluster;

    @BeforeAll
    static void start() throws Exception {
        // its settings: a key issued on the other node is known within 2 s, not the default 30 s (a spent address's
        // test waits for it)
        cluster = Cluster.shared();
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
    void theTenantsConnectionsAreCountedOnBothNodes() {
        String apiKey = cluster.newTenant("one-connection-cap");
        String chatId = Cluster.newChat(cluster.node(1).api().with("X-API-Key", apiKey), "student");
        List<ChatSocket> open = new ArrayList<>();
        try {
            for (int i = 0; i < CONNECTIONS_PER_TENANT; i++) {
                ChatSocket socket = ChatSocket.connect(cluster.node(1 + i % 2).port(), apiKey, "student", chatId);
                open.add(socket);
                socket.awaitEvent("connection_established");
            }

            for (Cluster.Node node : cluster.nodes()) {
                try (ChatSocket refused = ChatSocket.connect(node.port(), apiKey, "student", chatId)) {
                    JsonNode error = refused.awaitEvent("error");
                    assertThat(error.get("error_code").asString()).isEqualTo("CONNECTION_LIMIT_EXCEEDED");
                    assertThat(refused.awaitClose()).isEqualTo(4429);
                }
            }

            ChatSocket onNode2 = open.remove(1);
            onNode2.close();
            try (ChatSocket again = awaitAdmitted(cluster.node(1), apiKey, chatId)) {
                assertThat(again.isOpen()).isTrue();
            }
        } finally {
            open.forEach(ChatSocket::close);
        }
    }

    @Test
    void aChatWithASocketOnTheOtherNodeIsNotDeleted() {
        String apiKey = cluster.newTenant("delete-guard");
        Api node1 = cluster.node(1).api().with("X-API-Key", apiKey);
        String chatId = Cluster.newChat(node1, "student");

        try (ChatSocket onNode2 = ChatSocket.connect(cluster.node(2).port(), apiKey, "student", chatId)) {
            onNode2.awaitEvent("connection_established");

            Api.Reply refused = node1.delete("/api/v1/chats/" + chatId);

            assertThat(refused.status()).as(refused.toString()).isEqualTo(409);
            assertThat(refused.json().get("code").asString()).isEqualTo("CONFLICT");
        }
        Api.Reply deleted = awaitDeleted(node1, chatId);
        assertThat(deleted.status()).as(deleted.toString()).isEqualTo(200);
    }

    @Test
    void aKeyRevokedOnOneNodeIsRefusedAndClosedOnTheOther() {
        Api.Reply tenant = cluster.admin().post("/admin/v1/tenants", "{\"name\": \"revoked-elsewhere\"}");
        String tenantId = tenant.json().get("id").asString();
        Api.Reply second = cluster.node(1).admin().post("/admin/v1/tenants/" + tenantId + "/api-keys", "{}");
        assertThat(second.status()).as(second.toString()).isEqualTo(201);
        String apiKey = second.json().get("api_key").asString();
        Api onNode2 = cluster.node(2).api().with("X-API-Key", apiKey);
        String chatId = Cluster.newChat(onNode2, "student");

        try (ChatSocket socket = ChatSocket.connect(cluster.node(2).port(), apiKey, "student", chatId)) {
            socket.awaitEvent("connection_established");
            assertThat(onNode2.get("/api/v1/chats/" + chatId).status()).isEqualTo(200);

            Api.Reply revoked = cluster.node(1)
                    .admin()
                    .delete("/admin/v1/tenants/" + tenantId + "/api-keys/"
                            + second.json().get("id").asString());
            Instant revokedAt = Instant.now();
            assertThat(revoked.status()).as(revoked.toString()).isBetween(200, 204);

            Api.Reply refused = onNode2.get("/api/v1/chats/" + chatId);
            assertThat(refused.status())
                    .as("node 2 trusted the key a moment ago: %s", refused)
                    .isEqualTo(401);
            assertThat(socket.awaitEvent("error").get("error_code").asString()).isEqualTo("AUTH_ERROR");
            assertThat(socket.awaitClose()).isEqualTo(4401);
            assertThat(Duration.between(revokedAt, Instant.now()))
                    .as("told at once, not when node 2's key cache lapses")
                    .isLessThan(KEY_CACHE_TTL);
        }
        String firstKey = tenant.json().get("api_key").asString();
        assertThat(cluster.node(2)
                        .api()
                        .with("X-API-Key", firstKey)
                        .get("/api/v1/chats/" + chatId)
                        .status())
                .as("the tenant's other key still works")
                .isEqualTo(200);
    }

    /** A closed socket's slot is released as its node sees the close: a moment after the client's. */
    private static ChatSocket awaitAdmitted(Cluster.Node node, String apiKey, String chatId) {
        Instant deadline = Instant.now().plus(Eventually.PATIENCE);
        while (true) {
            ChatSocket socket = ChatSocket.connect(node.port(), apiKey, "student", chatId);
            JsonNode first = socket.next();
            if (first.get("event_type").asString().equals("connection_established")) {
                return socket;
            }
            socket.close();
            assertThat(Instant.now()).as("admitted again: %s", first).isBefore(deadline);
            sleep(100);
        }
    }

    private static Api.Reply awaitDeleted(Api api, String chatId) {
        Instant deadline = Instant.now().plus(Eventually.PATIENCE);
        while (true) {
            Api.Reply reply = api.delete("/api/v1/chats/" + chatId);
            if (reply.status() != 409 || Instant.now().isAfter(deadline)) {
                return reply;
            }
            sleep(100);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Test
    void anAddressFailingOnBothNodesHasItsGuessesSilencedOnBoth() {
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
            Api.Reply blocked = node.with("X-API-Key", "crs_another-guess").get("/api/v1/chats/" + UUID.randomUUID());
            assertThat(blocked.status()).as(blocked.toString()).isEqualTo(429);
            assertThat(blocked.json().get("code").asString()).isEqualTo("RATE_LIMITED");
        }
        // the budget refuses guesses, never a valid key: each node hears it (the one that did not issue it knows it
        // once it has read the active keys again, within tenancy.known-keys-refresh)
        for (Api node : new Api[] {node1, node2}) {
            long deadline = System.nanoTime() + java.time.Duration.ofSeconds(45).toNanos();
            int status;
            do {
                status = node.with("X-API-Key", apiKey)
                        .get("/api/v1/chats/" + UUID.randomUUID())
                        .status();
                if (status != 404) {
                    try {
                        Thread.sleep(500);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new AssertionError(e);
                    }
                }
            } while (status != 404 && System.nanoTime() < deadline);
            assertThat(status).as("a valid key from the spent address").isEqualTo(404);
        }
    }

    /**
     * A chat link is valid on every node: from an address past its failures, a link opened on one node opens on the
     * other too (a reconnect that lands elsewhere), and so does a link never opened anywhere, each at the cost of a
     * look-up from the address's bounded budget; a link with a verifying embed token needs none.
     */
    @Test
    void aSpentAddressOpensValidLinksOnEitherNode() {
        Api tenant = cluster.api().with("X-API-Key", cluster.newTenant("links-across"));
        String address = "198.51.100." + ThreadLocalRandom.current().nextInt(1, 255);
        Api node1 = cluster.node(1).api().with("X-Forwarded-For", address);
        Api node2 = cluster.node(2).api().with("X-Forwarded-For", address);
        String opened = Cluster.newChat(tenant, "learner");
        assertThat(node1.get("/chat-ui/api/chats/" + opened).status()).isEqualTo(200);
        for (int i = 1; i <= AUTH_FAILURES_PER_MINUTE; i++) {
            Api node = i % 2 == 0 ? node1 : node2;
            assertThat(node.get("/chat-ui/api/chats/" + UUID.randomUUID()).status())
                    .as("guess %d", i)
                    .isEqualTo(404);
        }

        assertThat(node2.get("/chat-ui/api/chats/" + opened).status())
                .as("opened on node 1, asked of node 2 from the spent address")
                .isEqualTo(200);
        assertThat(node1.get("/chat-ui/api/chats/" + Cluster.newChat(tenant, "learner"))
                        .status())
                .as("never opened anywhere")
                .isEqualTo(200);
        String tokened = Cluster.newChat(tenant, "learner");
        String token = tenant.post("/api/v1/chats/" + tokened + "/embed-token", "{}")
                .json()
                .get("token")
                .asString();
        assertThat(node2.with("X-Embed-Token", token)
                        .get("/chat-ui/api/chats/" + tokened)
                        .status())
                .isEqualTo(200);
    }

    /**
     * A user's data, exported from either node; their erasure asked of one node closes the user's connections on
     * both, with 1008, and erases for both: the other node then knows nothing of the user.
     */
    @Test
    void aUsersDataIsExportedFromEitherNodeAndItsErasureClosesTheirConnectionsOnBoth() throws Exception {
        String apiKey = cluster.newTenant("erasure-across-nodes");
        Api first = cluster.node(1).api().with("X-API-Key", apiKey);
        Api second = cluster.node(2).api().with("X-API-Key", apiKey);
        String chatOfErased = Cluster.newChat(first, "student-1");
        String otherChat = Cluster.newChat(first, "student-2");
        try (ChatSocket onFirst = ChatSocket.connect(cluster.node(1).port(), apiKey, "student-1", chatOfErased);
                ChatSocket onSecond = ChatSocket.connect(cluster.node(2).port(), apiKey, "student-1", otherChat);
                ChatSocket teacherOnSecond =
                        ChatSocket.connect(cluster.node(2).port(), apiKey, "teacher-1", chatOfErased)) {
            for (ChatSocket socket : List.of(onFirst, onSecond, teacherOnSecond)) {
                socket.awaitEvent("connection_established");
            }

            Api.Reply exported = second.get("/api/v1/users/student-1/export");
            assertThat(exported.status()).as(exported.toString()).isEqualTo(200);
            assertThat(exported.json().get("chats").get(0).get("chat").get("id").asString())
                    .as("the export, asked of the other node")
                    .isEqualTo(chatOfErased);

            Api.Reply started = first.delete("/api/v1/users/student-1");
            assertThat(started.status()).as(started.toString()).isEqualTo(202);

            assertThat(onFirst.awaitClose()).isEqualTo(1008);
            assertThat(onSecond.awaitClose())
                    .as("the user's connection on the other node")
                    .isEqualTo(1008);
            assertThat(teacherOnSecond.awaitClose())
                    .as("a connection on the user's chat, on the other node")
                    .isEqualTo(1008);
            String erasureId = started.json().get("erasure_id").asString();
            JsonNode done = Eventually.value(Duration.ofSeconds(30), () -> {
                JsonNode erasure = second.get("/api/v1/erasures/" + erasureId).json();
                return erasure.get("status").asString().equals("done") ? erasure : null;
            });
            assertThat(done.get("erased").get("chats").asInt()).isEqualTo(1);
        }
        assertThat(second.get("/api/v1/chats/" + chatOfErased).status()).isEqualTo(404);
        assertThat(second.get("/api/v1/users/student-1/export").status()).isEqualTo(404);
        assertThat(second.get("/api/v1/chats/" + otherChat).status()).isEqualTo(200);
    }

    @Test
    void aTeachersAnswerToARegradeRequestReachesTheReviewChatOnBothNodes() {
        String apiKey = cluster.newTenant("regrade-across-nodes");
        Api first = cluster.node(1).api().with("x-tenant-api-secret", apiKey);
        Api second = cluster.node(2).api().with("x-tenant-api-secret", apiKey);
        String courseId = first.post("/v1/courses", "{\"teacherId\": \"t-1\", \"name\": \"Course\"}")
                .json()
                .get("id")
                .asString();
        Api.Reply published = first.post(
                "/v1/homeworks",
                "{\"teacherId\": \"t-1\", \"courseId\": \"" + courseId + "\", \"assignmentId\": \"add\", \"files\": ["
                        + "{\"fileType\": \"task\", \"fileName\": \"task.md\", \"content\": \"Write add(a, b).\"},"
                        + "{\"fileType\": \"solution\", \"fileName\": \"add.py\","
                        + " \"content\": \"def add(a, b):\\n    return a + b\\n\"}]}");
        assertThat(published.status()).as(published.toString()).isEqualTo(201);
        Api.Reply uploaded = first.upload(
                "/v1/homeworks/" + published.json().get("id").asString() + "/submissions",
                new Api.Multipart()
                        .field("studentId", "student-1")
                        .file("add.py", "def add(a, b):\n    return a - b\n"));
        assertThat(uploaded.status()).as(uploaded.toString()).isEqualTo(201);
        String path = "/v1/homeworks/" + published.json().get("id").asString() + "/submissions/"
                + uploaded.json().get("id").asString();
        String chatId = uploaded.json().get("chatId").asString();
        Eventually.until(Duration.ofSeconds(60), () -> {
            Api.Reply submission = second.get(path);
            return submission.status() == 200
                    && submission.json().get("review").get("state").asString().equals("done");
        });

        try (ChatSocket studentOnSecond = ChatSocket.connect(cluster.node(2).port(), apiKey, "student-1", chatId);
                ChatSocket teacherOnFirst = ChatSocket.connect(cluster.node(1).port(), apiKey, "t-1", chatId)) {
            studentOnSecond.awaitEvent("connection_established");
            teacherOnFirst.awaitEvent("connection_established");
            Api.Reply asked = second.post(
                    path + "/regrade-requests", "{\"studentId\": \"student-1\", \"message\": \"It adds.\"}");
            assertThat(asked.status()).as(asked.toString()).isEqualTo(201);
            Api.Reply answered = first.patch(
                    path + "/regrade-requests/" + asked.json().get("id").asString(),
                    "{\"answer\": \"It subtracts.\", \"teacherId\": \"t-1\"}");
            assertThat(answered.status()).as(answered.toString()).isEqualTo(200);

            // the job that posts the answer runs on either node: each socket is on the other one for some run
            for (ChatSocket socket : List.of(studentOnSecond, teacherOnFirst)) {
                assertThat(socket.awaitEvent("message_received").get("content").asString())
                        .endsWith("It adds.");
                assertThat(socket.awaitEvent("message_stream_ended")
                                .get("content")
                                .asString())
                        .contains("It subtracts.");
            }
        }
        assertThat(first.get(path)
                        .json()
                        .get("regradeRequests")
                        .get(0)
                        .get("state")
                        .asString())
                .isEqualTo("answered");
    }

    @Test
    void aFlagRaisedOnOneNodeIsListedOnTheOtherWhoseSettingsTheReplyFollows() {
        String apiKey = cluster.newTenant("safety-across-nodes");
        Api first = cluster.node(1).api().with("X-API-Key", apiKey);
        Api second = cluster.node(2).api().with("X-API-Key", apiKey);
        Eventually.until(
                Duration.ofSeconds(10),
                () -> second.get("/api/v1/settings/moderation").status() == 200);
        Api.Reply set = second.put(
                "/api/v1/settings/moderation",
                "{\"alert_categories\": [\"self_harm\"], \"help_text\": \"Ms Reed, room 12.\"}");
        assertThat(set.status()).as(set.toString()).isEqualTo(200);
        String chatId = Cluster.newChat(first, "student-1");

        try (ChatSocket onFirst = ChatSocket.connect(cluster.node(1).port(), apiKey, "student-1", chatId)) {
            onFirst.awaitEvent("connection_established");
            onFirst.sendContent("i want to kill myself");
            assertThat(onFirst.awaitReplyEnd().getLast().get("content").asString())
                    .as("the help text set on the other node")
                    .contains("Ms Reed, room 12.");
        }

        JsonNode flags = second.get("/api/v1/moderation/flags").json();
        assertThat(flags.get("total").asInt()).isEqualTo(1);
        assertThat(flags.get("flags").get(0).get("chat_id").asString()).isEqualTo(chatId);
        assertThat(flags.get("flags").get(0).get("categories").toString()).isEqualTo("[\"self_harm\"]");
    }
}
