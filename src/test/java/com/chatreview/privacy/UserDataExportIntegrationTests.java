package com.chatreview.privacy;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.support.Api;
import com.chatreview.support.Api.Reply;
import com.chatreview.support.ChatSocket;
import com.chatreview.support.Eventually;
import com.chatreview.support.IntegrationTest;
import com.chatreview.support.TestService;
import com.chatreview.support.TestTenant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * {@code GET /api/v1/users/{user_id}/export}, black-box: everything the tenant holds of the user, in the JSON of the
 * endpoints that show it, and nothing of anyone else.
 */
@IntegrationTest
class UserDataExportIntegrationTests {

    @Test
    void exportsTheUsersChatsWithEveryMessageTheirSubmissionsWithTextsReviewsAndDecisionsAndTheirAiUsage(
            TestService service) throws Exception {
        TestTenant tenant = service.newTenant("export");
        String chatId = createChat(tenant, "student-1", "Fractions");
        try (ChatSocket socket = tenant.socket("student-1", chatId)) {
            socket.awaitEvent("connection_established");
            socket.sendContent("What is a half of a half?");
            socket.awaitReplyEnd();
        }
        createChat(tenant, "student-2", "Not theirs");
        String homeworkId = tenant.publishHomework("export-1");
        JsonNode submission = tenant.upload(homeworkId, "student-1", "answer.txt", "A half of a half is a quarter.\n");
        String submissionId = submission.get("id").asString();
        tenant.upload(homeworkId, "student-2", "answer.txt", "Someone else's answer.\n");
        Api homework = tenant.homework();
        Eventually.until(
                Eventually.PATIENCE,
                () -> !homework.get("/v1/homeworks/" + homeworkId + "/submissions/" + submissionId)
                        .json()
                        .get("grade")
                        .asString()
                        .isEmpty());
        Reply decided = homework.patch(
                "/v1/homeworks/" + homeworkId + "/submissions/" + submissionId,
                "{\"status\": \"approved\", \"teacherId\": \"t-1\"}");
        assertThat(decided.status()).as(decided.toString()).isEqualTo(200);

        Reply export = tenant.chats().get("/api/v1/users/student-1/export");

        assertThat(export.status()).as(export.toString()).isEqualTo(200);
        assertThat(export.header("Content-Type")).startsWith("application/json");
        assertThat(export.header("Cache-Control")).isEqualTo("no-store");
        JsonNode data = export.json();
        assertThat(data.get("user_id").asString()).isEqualTo("student-1");
        assertThat(data.get("user").get("first_seen_at").asString()).isNotBlank();

        List<String> chatTitles = new ArrayList<>();
        data.get("chats")
                .forEach(chat -> chatTitles.add(chat.get("chat").get("title").asString()));
        assertThat(chatTitles).containsExactly("Fractions", "Review: export-1");
        JsonNode fractions = data.get("chats").get(0);
        assertThat(fractions.get("chat").get("id").asString()).isEqualTo(chatId);
        assertThat(fractions.get("chat").get("user_id").asString()).isEqualTo("student-1");
        JsonNode messages = fractions.get("messages");
        assertThat(messages.size()).isEqualTo(2);
        assertThat(messages.get(0).get("sender_role").asString()).isEqualTo("user");
        assertThat(messages.get(0).get("content").asString()).isEqualTo("What is a half of a half?");
        assertThat(messages.get(1).get("sender_role").asString()).isEqualTo("assistant");
        assertThat(messages.get(1).get("content").asString()).isNotBlank();
        JsonNode reviewChat = data.get("chats").get(1);
        assertThat(reviewChat.get("messages").size())
                .as("the review chat's messages")
                .isGreaterThanOrEqualTo(1);

        JsonNode submissions = data.get("submissions");
        assertThat(submissions.size()).isEqualTo(1);
        JsonNode exported = submissions.get(0);
        assertThat(exported.get("id").asString()).isEqualTo(submissionId);
        assertThat(exported.get("studentId").asString()).isEqualTo("student-1");
        assertThat(exported.get("grade").asString()).matches("[A-F]");
        assertThat(exported.get("analysis").asString()).isNotBlank();
        assertThat(exported.get("status").asString()).isEqualTo("approved");
        assertThat(exported.get("decisions").get(0).get("decidedBy").asString()).isEqualTo("t-1");
        assertThat(exported.get("files").get(0).get("fileName").asString()).isEqualTo("answer.txt");
        JsonNode text = exported.get("texts").get(0);
        assertThat(text.get("fileName").asString()).isEqualTo("answer.txt");
        assertThat(text.get("text").asString()).contains("A half of a half is a quarter.");

        List<String> usageKinds = new ArrayList<>();
        data.get("ai_usage").forEach(usage -> usageKinds.add(usage.get("kind").asString()));
        assertThat(usageKinds).contains("chat", "review");

        assertThat(export.text()).doesNotContain("student-2", "Someone else's answer", "Not theirs");
    }

    @Test
    void aUserTheTenantDoesNotHaveIsNotFoundAndAnotherTenantsUserIsNotTheirs(TestService service) {
        TestTenant tenant = service.newTenant("export-owner");
        TestTenant other = service.newTenant("export-other");
        createChat(tenant, "student-9", "Theirs");

        Reply unknown = tenant.chats().get("/api/v1/users/nobody/export");
        assertThat(unknown.status()).isEqualTo(404);
        assertThat(unknown.json().get("code").asString()).isEqualTo("NOT_FOUND");
        assertThat(unknown.json().get("fix").asString()).isNotBlank();
        assertThat(other.chats().get("/api/v1/users/student-9/export").status()).isEqualTo(404);
        assertThat(service.api().get("/api/v1/users/student-9/export").status()).isEqualTo(401);
    }

    private static String createChat(TestTenant tenant, String userId, String title) {
        Reply created =
                tenant.chats().post("/api/v1/chats", "{\"user_id\": \"" + userId + "\", \"title\": \"" + title + "\"}");
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        return created.json().get("id").asString();
    }
}
