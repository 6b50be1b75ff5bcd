package com.chatreview.review;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.support.Api;
import com.chatreview.support.Api.Multipart;
import com.chatreview.support.Api.Reply;
import com.chatreview.support.ChatSocket;
import com.chatreview.support.Eventually;
import com.chatreview.support.IntegrationTest;
import com.chatreview.support.TestService;
import com.chatreview.support.TestTenant;
import com.chatreview.webhook.Receiver;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;

/** Regrade requests of docs/api.md over HTTP: the student's request, the teacher's answer in the review chat. */
@IntegrationTest
class RegradeRequestIntegrationTests {

    static final Duration PATIENCE = Duration.ofSeconds(60);

    @Autowired
    ReviewScheduler scheduler;

    @Autowired
    JdbcClient jdbc;

    TestTenant tenant;
    Api homework;
    String homeworkId;

    @BeforeEach
    void tenantWithAHomework(TestService service) {
        tenant = service.newTenant("regrade-tests");
        homework = tenant.homework();
        String courseId = homework.post("/v1/courses", "{\"teacherId\": \"t-1\", \"name\": \"Python\"}")
                .json()
                .get("id")
                .asString();
        Reply published = homework.post(
                "/v1/homeworks",
                Api.JSON.writeValueAsString(Map.of(
                        "teacherId",
                        "t-1",
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
        homeworkId = published.json().get("id").asString();
    }

    @AfterEach
    void jobsRunAgain() {
        scheduler.resume();
    }

    @Test
    void theStudentAsksTheTeacherAnswersAndTheAnswerReachesTheReviewChat() throws Exception {
        try (Receiver receiver = new Receiver()) {
            Reply hook = tenant.chats()
                    .post(
                            "/api/v1/webhooks",
                            "{\"url\": \"" + receiver.url() + "\", \"event_types\": [\"submission.regrade_requested\","
                                    + " \"submission.regrade_answered\"]}");
            assertThat(hook.status()).as(hook.toString()).isEqualTo(201);
            JsonNode reviewed = awaitReview(upload("student-1", "def add(a, b):\n    return a - b\n"));
            String path = path(reviewed);
            String chatId = reviewed.get("chatId").asString();
            assertThat(reviewed.get("regradeRequests").size()).isZero();

            Reply asked = homework.post(path + "/regrade-requests", """
                    {"studentId": "student-1", "criterionId": "correctness",
                     "message": "My add works for the numbers in the task."}""");

            assertThat(asked.status()).as(asked.toString()).isEqualTo(201);
            JsonNode request = asked.json();
            assertThat(names(request))
                    .containsExactly(
                            "id", "criterionId", "message", "state", "answer", "createdAt", "answeredAt", "answeredBy");
            assertThat(request.get("criterionId").asString()).isEqualTo("correctness");
            assertThat(request.get("state").asString()).isEqualTo("open");
            assertThat(request.get("answer").isNull()).isTrue();
            String requestId = request.get("id").asString();
            assertThat(homework.get(path).json().get("regradeRequests"))
                    .as("the submission lists it")
                    .containsExactly(request);
            JsonNode requested =
                    Api.JSON.readTree(receiver.next(Duration.ofSeconds(20)).body());
            assertThat(requested.get("type").asString()).isEqualTo("submission.regrade_requested");
            assertThat(requested.get("data").get("regradeRequest")).isEqualTo(request);
            assertThat(requested.get("data").get("submission").get("id").asString())
                    .isEqualTo(reviewed.get("id").asString());

            JsonNode answered;
            try (ChatSocket socket = tenant.socket("student-1", chatId)) {
                socket.awaitEvent("connection_established");
                Reply answer = homework.patch(
                        path + "/regrade-requests/" + requestId,
                        "{\"answer\": \"You subtract: add(2, 2) gives 0.\", \"teacherId\": \"t-1\"}");
                assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
                answered = answer.json();
                JsonNode received = socket.awaitEvent("message_received");
                assertThat(received.get("content").asString())
                        .isEqualTo(
                                "Regrade request about “Solves the task”: My add works for the numbers in the task.");
                JsonNode ended = socket.awaitEvent("message_stream_ended");
                assertThat(ended.get("content").asString())
                        .startsWith("**Your teacher answered your regrade request** about “Solves the task”:")
                        .contains("You subtract: add(2, 2) gives 0.")
                        .contains("Your points for “Solves the task” are now");
            }
            assertThat(answered.get("state").asString()).isEqualTo("answered");
            assertThat(answered.get("answer").asString()).isEqualTo("You subtract: add(2, 2) gives 0.");
            assertThat(answered.get("answeredBy").asString()).isEqualTo("t-1");
            assertThat(answered.get("answeredAt").asString()).isNotBlank();
            JsonNode answeredEvent =
                    Api.JSON.readTree(receiver.next(Duration.ofSeconds(20)).body());
            assertThat(answeredEvent.get("type").asString()).isEqualTo("submission.regrade_answered");
            assertThat(answeredEvent.get("data").get("regradeRequest")).isEqualTo(answered);

            JsonNode messages = tenant.chats()
                    .get("/api/v1/chats/" + chatId + "/messages")
                    .json()
                    .get("messages");
            assertThat(messages.size()).isEqualTo(4);
            assertThat(messages.get(2).get("sender_role").asString()).isEqualTo("user");
            assertThat(messages.get(2).get("metadata").get("kind").asString()).isEqualTo("regrade_request");
            assertThat(messages.get(2).get("metadata").get("regrade_request_id").asString())
                    .isEqualTo(requestId);
            JsonNode teacher = messages.get(3);
            assertThat(teacher.get("sender_role").asString()).isEqualTo("assistant");
            assertThat(teacher.get("metadata").get("provider").asString()).isEqualTo("teacher");
            assertThat(jdbc.sql("SELECT count(*) FROM ai_usage WHERE message_id = :id")
                            .param("id", UUID.fromString(teacher.get("id").asString()))
                            .query(Long.class)
                            .single())
                    .as("a regrade is the teacher's work, not the AI's")
                    .isZero();
            assertThat(homework.patch(path + "/regrade-requests/" + requestId, "{\"answer\": \"Again.\"}")
                            .status())
                    .as("answered once")
                    .isEqualTo(409);
        }
    }

    @Test
    void onlyTheStudentAsksAboutAGradeThereIsAtMostThreeOpenAndBadInputIs400() {
        scheduler.pause();
        JsonNode submission = upload("student-2", ReviewIntegrationTests.SOLUTION);
        String requests = path(submission) + "/regrade-requests";
        Reply early = homework.post(requests, "{\"studentId\": \"student-2\", \"message\": \"Look again.\"}");
        assertThat(early.status()).as("no grade yet").isEqualTo(409);
        assertThat(early.json().get("code").asString()).isEqualTo("CONFLICT");
        scheduler.resume();
        awaitReview(submission);

        for (String body : List.of(
                "{\"studentId\": \"student-3\", \"message\": \"Look again.\"}",
                "{\"message\": \"Look again.\"}",
                "{\"studentId\": \"student-2\"}",
                "{\"studentId\": \"student-2\", \"message\": \" \"}",
                "{\"studentId\": \"student-2\", \"message\": \"" + "x".repeat(2_001) + "\"}",
                "{\"studentId\": \"student-2\", \"criterionId\": \"style\", \"message\": \"Look again.\"}",
                "not json")) {
            Reply reply = homework.post(requests, body);
            assertThat(reply.status()).as(body + " -> " + reply).isEqualTo(400);
            assertThat(reply.json().get("code").asString()).isEqualTo("VALIDATION_ERROR");
            assertThat(reply.json().get("fix").asString()).isNotBlank();
        }
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Reply reply = homework.post(
                    requests, "{\"studentId\": \"student-2\", \"message\": \"" + "x".repeat(2_000) + "\"}");
            assertThat(reply.status()).as(reply.toString()).isEqualTo(201);
            assertThat(reply.json().get("criterionId").isNull())
                    .as("the whole grade")
                    .isTrue();
            ids.add(reply.json().get("id").asString());
        }
        Reply fourth = homework.post(requests, "{\"studentId\": \"student-2\", \"message\": \"And this?\"}");
        assertThat(fourth.status()).as(fourth.toString()).isEqualTo(409);

        assertThat(homework.patch(requests + "/" + ids.getFirst(), "{\"answer\": \"\"}")
                        .status())
                .isEqualTo(400);
        assertThat(homework.patch(requests + "/" + ids.getFirst(), "{\"answer\": \"" + "y".repeat(4_001) + "\"}")
                        .status())
                .isEqualTo(400);
        assertThat(homework.patch(requests + "/" + UUID.randomUUID(), "{\"answer\": \"No.\"}")
                        .status())
                .isEqualTo(404);
        assertThat(homework.patch(requests + "/" + ids.getFirst(), "{\"answer\": \"No.\"}")
                        .status())
                .isEqualTo(200);
        assertThat(homework.post(requests, "{\"studentId\": \"student-2\", \"message\": \"And this?\"}")
                        .status())
                .as("one answered: room for another")
                .isEqualTo(201);
        Eventually.until(
                PATIENCE,
                () -> Boolean.TRUE.equals(jdbc.sql("""
                        SELECT chat_message_id IS NOT NULL FROM regrade_requests WHERE id = :id""")
                        .param("id", UUID.fromString(ids.getFirst()))
                        .query(Boolean.class)
                        .single()));
    }

    @Test
    void theChatPageAsksAsTheChatsStudentWithTheSameRules(TestService service) {
        JsonNode reviewed = awaitReview(upload("student-4", ReviewIntegrationTests.SOLUTION));
        Api page = new Api(service.port());
        String asks = "/chat-ui/api/chats/" + reviewed.get("chatId").asString() + "/regrade-requests";

        Reply blank = page.post(asks, "{\"message\": \"\"}");
        assertThat(blank.status()).as(blank.toString()).isEqualTo(400);
        assertThat(blank.json().get("code").asString()).isEqualTo("VALIDATION_ERROR");
        assertThat(page.post(asks, "{\"criterion_id\": \"style\", \"message\": \"Look.\"}")
                        .status())
                .isEqualTo(400);
        Reply asked = page.post(asks, "{\"criterion_id\": \"completeness\", \"message\": \"I handed in all.\"}");
        assertThat(asked.status()).as(asked.toString()).isEqualTo(201);
        assertThat(names(asked.json()))
                .containsExactly("id", "criterion_id", "message", "state", "answer", "created_at", "answered_at");
        JsonNode listed =
                homework.get(path(reviewed)).json().get("regradeRequests").get(0);
        assertThat(listed.get("id").asString()).isEqualTo(asked.json().get("id").asString());
        assertThat(listed.get("criterionId").asString()).isEqualTo("completeness");

        JsonNode state = page.get("/chat-ui/api/chats/" + reviewed.get("chatId").asString() + "/review")
                .json()
                .get("review");
        assertThat(state.get("regrade_requests").get(0).get("state").asString()).isEqualTo("open");
        assertThat(state.get("may_ask_for_regrade").asBoolean()).isTrue();

        String plainChat = tenant.chats()
                .post("/api/v1/chats", "{\"user_id\": \"student-4\"}")
                .json()
                .get("id")
                .asString();
        assertThat(page.post("/chat-ui/api/chats/" + plainChat + "/regrade-requests", "{\"message\": \"Look.\"}")
                        .status())
                .as("a chat about no review")
                .isEqualTo(404);
    }

    private JsonNode upload(String studentId, String content) {
        Reply reply = homework.upload(
                "/v1/homeworks/" + homeworkId + "/submissions",
                new Multipart()
                        .field("studentId", studentId)
                        .file("files", "main.py", "text/x-python", content.getBytes(StandardCharsets.UTF_8)));
        assertThat(reply.status()).as(reply.toString()).isEqualTo(201);
        return reply.json();
    }

    private String path(JsonNode submission) {
        return "/v1/homeworks/" + homeworkId + "/submissions/"
                + submission.get("id").asString();
    }

    private JsonNode awaitReview(JsonNode submission) {
        String path = path(submission);
        return Eventually.value(PATIENCE, () -> {
            JsonNode current = homework.get(path).json();
            return current.get("review").get("state").asString().equals("done") ? current : null;
        });
    }

    private static List<String> names(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.propertyNames().forEach(names::add);
        return names;
    }
}
