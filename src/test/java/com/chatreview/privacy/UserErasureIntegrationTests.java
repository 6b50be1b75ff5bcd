package com.chatreview.privacy;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.support.Api;
import com.chatreview.support.Api.Reply;
import com.chatreview.support.ChatSocket;
import com.chatreview.support.Eventually;
import com.chatreview.support.IntegrationTest;
import com.chatreview.support.SingleNodeToo;
import com.chatreview.support.TestService;
import com.chatreview.support.TestTenant;
import com.chatreview.webhook.Receiver;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;

/**
 * {@code DELETE /api/v1/users/{user_id}}, black-box where the API shows it: the user's open connection is closed with
 * 1008, then every endpoint answers as if the user had never been, the webhook deliveries about them are tombstones,
 * the erasure record keeps counts and a hash, and another user's data is untouched.
 */
@SingleNodeToo
@IntegrationTest
class UserErasureIntegrationTests {

    @Autowired
    JdbcClient jdbc;

    @Test
    void erasesEverythingOfTheUserAndNothingOfAnother(TestService service) throws Exception {
        TestTenant tenant = service.newTenant("erasure");
        Api chats = tenant.chats();
        Api homework = tenant.homework();
        try (Receiver receiver = new Receiver()) {
            Reply hook = chats.post(
                    "/api/v1/webhooks",
                    "{\"url\": \"" + receiver.url() + "\", \"event_types\": [\"chat.message.created\","
                            + " \"submission.created\", \"submission.reviewed\"]}");
            assertThat(hook.status()).as(hook.toString()).isEqualTo(201);

            String chatOfErased = createChat(tenant, "student-1");
            String chatOfOther = createChat(tenant, "student-2");
            talk(tenant, "student-1", chatOfErased, "My name is Ada and I live on Elm Street.");
            talk(tenant, "student-2", chatOfOther, "What is a prime number?");
            String homeworkId = tenant.publishHomework("erasure-1");
            String submissionOfErased = tenant.upload(homeworkId, "student-1", "answer.txt", "Ada's answer.\n")
                    .get("id")
                    .asString();
            String submissionOfOther = tenant.upload(homeworkId, "student-2", "answer.txt", "Another answer.\n")
                    .get("id")
                    .asString();
            awaitReviewed(homework, homeworkId, submissionOfErased);
            awaitReviewed(homework, homeworkId, submissionOfOther);
            String reviewChatOfErased = homework.get(
                            "/v1/homeworks/" + homeworkId + "/submissions/" + submissionOfErased)
                    .json()
                    .get("chatId")
                    .asString();
            int reviewMessages = chats.get("/api/v1/chats/" + reviewChatOfErased)
                    .json()
                    .get("message_count")
                    .asInt();

            try (ChatSocket open = tenant.socket("student-1", chatOfErased);
                    ChatSocket teacher = tenant.socket("teacher-1", chatOfErased)) {
                open.awaitEvent("connection_established");
                teacher.awaitEvent("connection_established");

                Reply started = chats.delete("/api/v1/users/student-1");

                assertThat(started.status()).as(started.toString()).isEqualTo(202);
                assertThat(started.json().get("status").asString()).isEqualTo("running");
                String erasureId = started.json().get("erasure_id").asString();
                assertThat(open.awaitClose()).isEqualTo(1008);
                assertThat(teacher.awaitClose())
                        .as("a connection on the user's chat")
                        .isEqualTo(1008);

                JsonNode done = Eventually.value(Eventually.PATIENCE, () -> {
                    JsonNode erasure =
                            chats.get("/api/v1/erasures/" + erasureId).json();
                    return erasure.get("status").asString().equals("done") ? erasure : null;
                });
                assertThat(done.get("erasure_id").asString()).isEqualTo(erasureId);
                assertThat(done.get("user_id_hash").asString()).isEqualTo(UserErasure.hash("student-1"));
                assertThat(done.get("started_at").asString()).isNotBlank();
                assertThat(done.get("finished_at").asString()).isNotBlank();
                JsonNode erased = done.get("erased");
                assertThat(erased.get("chats").asInt()).isEqualTo(2);
                assertThat(erased.get("messages").asInt()).isEqualTo(2 + reviewMessages);
                assertThat(erased.get("submissions").asInt()).isEqualTo(1);
                assertThat(erased.get("files").asInt()).isEqualTo(1);
                assertThat(done.toString()).doesNotContain("student-1");
            }

            for (String chat : List.of(chatOfErased, reviewChatOfErased)) {
                assertThat(chats.get("/api/v1/chats/" + chat).status()).isEqualTo(404);
                assertThat(chats.get("/api/v1/chats/" + chat + "/messages").status())
                        .isEqualTo(404);
                assertThat(service.api().get("/chat-ui/api/chats/" + chat).status())
                        .as("the chat page's history")
                        .isEqualTo(404);
                try (ChatSocket resumed = ChatSocket.to(service.port())
                        .query("api_key", tenant.apiKey())
                        .query("user_id", "student-1")
                        .query("chat_id", chat)
                        .query("resume_from", "0")
                        .connect()) {
                    assertThat(resumed.awaitClose()).isEqualTo(4404);
                }
            }
            assertThat(homework.get("/v1/homeworks/" + homeworkId + "/submissions/" + submissionOfErased)
                            .status())
                    .isEqualTo(404);
            assertThat(homework.get("/v1/homeworks/" + homeworkId + "/submissions?studentId=student-1")
                            .json()
                            .get("total")
                            .asInt())
                    .isZero();
        }

        // nothing of the user on any endpoint
        assertThat(chats.get("/api/v1/chats/user/student-1").status()).isEqualTo(404);
        assertThat(chats.get("/api/v1/users/student-1/export").status()).isEqualTo(404);
        assertThat(chats.delete("/api/v1/users/student-1").status()).isEqualTo(404);
        assertThat(jdbc.sql("SELECT count(*) FROM ai_usage WHERE tenant_id = :tenant AND user_id = 'student-1'")
                        .param("tenant", tenant.uuid())
                        .query(Integer.class)
                        .single())
                .isZero();
        assertThat(jdbc.sql("SELECT count(*) FROM ai_usage WHERE tenant_id = :tenant AND user_id = :pseudonym")
                        .param("tenant", tenant.uuid())
                        .param("pseudonym", "erased:" + UserErasure.hash("student-1"))
                        .query(Integer.class)
                        .single())
                .as("the user's usage, still counted for the tenant")
                .isPositive();
        List<String> payloads = jdbc.sql("SELECT payload FROM webhook_deliveries WHERE tenant_id = :tenant")
                .param("tenant", tenant.uuid())
                .query((row, n) -> row.getString(1))
                .list();
        assertThat(payloads).noneMatch(payload -> payload.contains("Ada"));
        assertThat(payloads).anyMatch(payload -> payload.contains("\"erased\":true"));
        assertThat(payloads).anyMatch(payload -> payload.contains("What is a prime number?"));

        // the other user untouched
        JsonNode other = chats.get("/api/v1/users/student-2/export").json();
        assertThat(other.get("chats").size()).isEqualTo(2);
        assertThat(other.get("submissions").size()).isEqualTo(1);
    }

    @Test
    void anErasureOfAnotherTenantOrOfNoOneIsNotFound(TestService service) {
        TestTenant tenant = service.newTenant("erasure-owner");
        TestTenant other = service.newTenant("erasure-other");
        createChat(tenant, "student-9");

        assertThat(other.chats().delete("/api/v1/users/student-9").status()).isEqualTo(404);
        assertThat(tenant.chats().delete("/api/v1/users/nobody").status()).isEqualTo(404);
        String erasureId = tenant.chats()
                .delete("/api/v1/users/student-9")
                .json()
                .get("erasure_id")
                .asString();
        Reply foreign = other.chats().get("/api/v1/erasures/" + erasureId);
        assertThat(foreign.status()).isEqualTo(404);
        assertThat(foreign.json().get("code").asString()).isEqualTo("NOT_FOUND");
        assertThat(tenant.chats().get("/api/v1/erasures/not-an-id").status())
                .as("like any id the tenant does not have")
                .isEqualTo(tenant.chats().get("/api/v1/chats/not-an-id").status());
    }

    private static void talk(TestTenant tenant, String userId, String chatId, String content) {
        try (ChatSocket socket = tenant.socket(userId, chatId)) {
            socket.awaitEvent("connection_established");
            socket.sendContent(content);
            socket.awaitReplyEnd();
        }
    }

    private static void awaitReviewed(Api homework, String homeworkId, String submissionId) {
        Eventually.until(
                Duration.ofSeconds(30),
                () -> !homework.get("/v1/homeworks/" + homeworkId + "/submissions/" + submissionId)
                        .json()
                        .get("grade")
                        .asString()
                        .isEmpty());
    }

    private static String createChat(TestTenant tenant, String userId) {
        Reply created = tenant.chats().post("/api/v1/chats", "{\"user_id\": \"" + userId + "\"}");
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        return created.json().get("id").asString();
    }
}
