package com.chatreview.review;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.support.Api;
import com.chatreview.support.Api.Multipart;
import com.chatreview.support.Api.Reply;
import com.chatreview.support.DocumentedJson;
import com.chatreview.support.Eventually;
import com.chatreview.support.IntegrationTest;
import com.chatreview.support.TestService;
import com.chatreview.support.TestTenant;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The examples of docs/api.md about the teacher's grade, regrade requests and agreement, run: the documented
 * decision is sent as it is written, and every documented answer has the fields the service answers.
 */
@IntegrationTest
class GradeDocsExamplesIntegrationTests {

    @Test
    void theDocumentedExamplesAreWhatTheServiceTakesAndAnswers(TestService service) {
        TestTenant tenant = service.newTenant("grade-docs-examples");
        Api homework = tenant.homework();
        String courseId = homework.post("/v1/courses", "{\"teacherId\": \"t-7\", \"name\": \"Python\"}")
                .json()
                .get("id")
                .asString();
        Reply published = homework.post(
                "/v1/homeworks",
                Api.JSON.writeValueAsString(Map.of(
                        "teacherId",
                        "t-7",
                        "courseId",
                        courseId,
                        "assignmentId",
                        "add-1",
                        "files",
                        List.of(
                                Map.of(
                                        "fileType",
                                        "task",
                                        "fileName",
                                        "task.md",
                                        "content",
                                        ReviewIntegrationTests.TASK),
                                Map.of(
                                        "fileType",
                                        "solution",
                                        "fileName",
                                        "solution.py",
                                        "content",
                                        ReviewIntegrationTests.SOLUTION)))));
        assertThat(published.status()).as(published.toString()).isEqualTo(201);
        String homeworkId = published.json().get("id").asString();
        Reply uploaded = homework.upload(
                "/v1/homeworks/" + homeworkId + "/submissions",
                new Multipart()
                        .field("studentId", "student-1")
                        .file(
                                "files",
                                "main.py",
                                "text/x-python",
                                "def add(a, b):\n    return a - b\n".getBytes(StandardCharsets.UTF_8)));
        assertThat(uploaded.status()).as(uploaded.toString()).isEqualTo(201);
        String path = "/v1/homeworks/" + homeworkId + "/submissions/"
                + uploaded.json().get("id").asString();
        Eventually.until(
                Eventually.PATIENCE,
                () -> homework.get(path)
                        .json()
                        .get("review")
                        .get("state")
                        .asString()
                        .equals("done"));

        JsonNode decision =
                DocumentedJson.examples("api.md", "The teacher's grade").getFirst();
        Reply decided = homework.patch(path, decision.toString());
        assertThat(decided.status()).as("the documented decision: %s", decided).isEqualTo(200);
        JsonNode submission =
                DocumentedJson.examples("api.md", "The submission object").getFirst();
        assertThat(DocumentedJson.differences(submission, decided.json())).isEmpty();

        JsonNode request = DocumentedJson.examples("api.md", "Regrade requests").getFirst();
        Reply asked = homework.post(
                path + "/regrade-requests",
                Api.JSON.writeValueAsString(Map.of(
                        "studentId",
                        "student-1",
                        "criterionId",
                        request.get("criterionId").asString(),
                        "message",
                        request.get("message").asString())));
        assertThat(asked.status()).as(asked.toString()).isEqualTo(201);
        assertThat(DocumentedJson.differences(request, asked.json())).isEmpty();
        Reply answered = homework.patch(
                path + "/regrade-requests/" + asked.json().get("id").asString(),
                "{\"answer\": \"You subtract.\", \"teacherId\": \"t-7\"}");
        assertThat(answered.status()).as(answered.toString()).isEqualTo(200);
        assertThat(DocumentedJson.differences(request, answered.json())).isEmpty();
        assertThat(DocumentedJson.differences(submission, homework.get(path).json()))
                .as("with its decision and regrade request")
                .isEmpty();

        Reply agreement = homework.get("/v1/homeworks/" + homeworkId + "/agreement");
        assertThat(agreement.status()).as(agreement.toString()).isEqualTo(200);
        assertThat(agreement.json().get("decidedSubmissions").asInt()).isEqualTo(1);
        assertThat(DocumentedJson.differences(
                        DocumentedJson.examples("api.md", "Agreement").getFirst(), agreement.json()))
                .isEmpty();

        String chatId = uploaded.json().get("chatId").asString();
        String token = tenant.chats()
                .post("/api/v1/chats/" + chatId + "/embed-token", "{}")
                .json()
                .get("token")
                .asString();
        Reply history = new Api(tenant.port()).with("X-Embed-Token", token).get("/chat-ui/api/chats/" + chatId);
        assertThat(history.status()).as(history.toString()).isEqualTo(200);
        JsonNode documentedHistory = DocumentedJson.examples("api.md", "The chat page").stream()
                .filter(example -> example.has("review"))
                .findFirst()
                .orElseThrow();
        assertThat(DocumentedJson.differences(documentedHistory, history.json()))
                .isEmpty();
    }
}
