package com.chatreview.review;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.support.Api;
import com.chatreview.support.Api.Multipart;
import com.chatreview.support.Api.Reply;
import com.chatreview.support.ServiceProcess;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The review job is durable (docs/api.md, Homework): the real service, killed with SIGKILL while reviews are queued and one
 * is streaming, then started again on the same data, ends with every submission reviewed once: one question and
 * one review in each review chat, the review the submission's analysis. A review waiting for a budget
 * (docs/api.md, Usage and budgets) goes on waiting through the kill, and runs once the budget is raised. Not an {@code *IntegrationTests} class: it
 * brings its own database, so it runs once.
 */
@Tag("process")
class ReviewRestartTests {

    static final int SUBMISSIONS = 6;
    static final Duration PATIENCE = Duration.ofSeconds(120);

    static ServiceProcess service;

    @BeforeAll
    static void prepare() throws IOException {
        service = new ServiceProcess(
                "review-restart",
                Map.of(
                        // slow enough that the kill lands mid-review, two at a time so that others wait queued
                        "ASSISTANT_OFFLINETOKENDELAY", "10ms",
                        "REVIEW_CONCURRENCY", "2",
                        "REVIEW_POLLINTERVAL", "250ms",
                        // a killed node's jobs are taken over after 4 missed heartbeats of 500 ms
                        "REVIEW_HEARTBEAT", "500ms",
                        "REVIEW_MISSEDHEARTBEATS", "4",
                        "RATE_LIMIT_REST_PER_MINUTE", "10000"));
    }

    @AfterAll
    static void stopEverything() throws IOException {
        service.close();
    }

    @Test
    void reviewsQueuedOrRunningWhenTheServiceIsKilledAreAllDoneOnceAfterItsRestart() throws Exception {
        if (!service.running()) {
            service.start();
        }
        int port = service.port();
        Api admin = new Api(port).with("X-Admin-Token", ServiceProcess.ADMIN_TOKEN);
        String apiKey = created(admin.post("/admin/v1/tenants", "{\"name\": \"restart\"}"))
                .get("api_key")
                .asString();
        Api homework = new Api(port).with("x-tenant-api-secret", apiKey);
        Api chats = new Api(port).with("X-API-Key", apiKey);
        String homeworkId = publishHomework(homework);
        List<JsonNode> submissions = new ArrayList<>();
        for (int i = 0; i < SUBMISSIONS; i++) {
            String code = "def add(a, b):\n    # attempt " + i + "\n    return a + b + " + i + "\n";
            submissions.add(upload(homework, homeworkId, "student-" + i, code));
        }
        awaitAReviewStreaming(chats, submissions);

        service.kill();
        service.start();

        for (JsonNode submission : submissions) {
            JsonNode reviewed = awaitReviewed(homework, homeworkId, submission);
            assertThat(reviewed.get("status").asString()).isEqualTo("reviewed");
            assertThat(reviewed.get("grade").asString()).matches("[A-F]");
            JsonNode messages = chats.get(
                            "/api/v1/chats/" + reviewed.get("chatId").asString() + "/messages")
                    .json();
            assertThat(messages.get("total").asInt())
                    .as("one question, one review")
                    .isEqualTo(2);
            assertThat(messages.get("messages").get(0).get("sender_role").asString())
                    .isEqualTo("user");
            JsonNode review = messages.get("messages").get(1);
            assertThat(review.get("sender_role").asString()).isEqualTo("assistant");
            assertThat(review.get("content").asString())
                    .isEqualTo(reviewed.get("analysis").asString());
        }
    }

    @Test
    void aReviewWaitingForABudgetWhenTheServiceIsKilledStillWaitsAfterItsRestartAndRunsOnceTheBudgetIsRaised()
            throws Exception {
        if (!service.running()) {
            service.start();
        }
        int port = service.port();
        Api admin = new Api(port).with("X-Admin-Token", ServiceProcess.ADMIN_TOKEN);
        JsonNode tenant = created(admin.post("/admin/v1/tenants", "{\"name\": \"restart-budget\"}"));
        String budgetPath = "/admin/v1/tenants/" + tenant.get("id").asString() + "/budget";
        assertThat(admin.put(budgetPath, "{\"monthly_reviews\": 0}").status()).isEqualTo(200);
        Api homework =
                new Api(port).with("x-tenant-api-secret", tenant.get("api_key").asString());
        Api chats = new Api(port).with("X-API-Key", tenant.get("api_key").asString());
        String homeworkId = publishHomework(homework);
        JsonNode submission = upload(homework, homeworkId, "student-1", "def add(a, b):\n    return a + b\n");
        String path = "/v1/homeworks/" + homeworkId + "/submissions/"
                + submission.get("id").asString();
        awaitState(homework, path, "waiting_for_budget");

        service.kill();
        service.start();

        // the restarted node's scheduler polls every 250 ms: a lost wait would have run (or failed) by now
        Thread.sleep(3_000);
        assertThat(homework.get(path).json().get("review").get("state").asString())
                .isEqualTo("waiting_for_budget");
        String chatPath = "/api/v1/chats/" + submission.get("chatId").asString() + "/messages";
        assertThat(chats.get(chatPath).json().get("total").asInt()).isZero();

        assertThat(admin.put(budgetPath, "{\"monthly_reviews\": 1}").status()).isEqualTo(200);
        JsonNode reviewed = awaitReviewed(homework, homeworkId, submission);
        assertThat(reviewed.get("status").asString()).isEqualTo("reviewed");
        assertThat(chats.get(chatPath).json().get("total").asInt())
                .as("one question, one review")
                .isEqualTo(2);
    }

    private static String publishHomework(Api homework) {
        String courseId = created(homework.post("/v1/courses", "{\"teacherId\": \"t-1\", \"name\": \"Python\"}"))
                .get("id")
                .asString();
        return created(homework.post("/v1/homeworks", """
                        {"teacherId": "t-1", "courseId": "%s", "assignmentId": "add-1",
                         "files": [{"fileType": "task", "fileName": "task.md", "content": "Write add(a, b)."},
                                   {"fileType": "solution", "fileName": "solution.py",
                                    "content": "def add(a, b):\\n    return a + b\\n"}]}""".formatted(courseId)))
                .get("id")
                .asString();
    }

    private static JsonNode upload(Api homework, String homeworkId, String studentId, String code) {
        return created(homework.upload(
                "/v1/homeworks/" + homeworkId + "/submissions",
                new Multipart()
                        .field("studentId", studentId)
                        .file("files", "main.py", "text/x-python", code.getBytes(StandardCharsets.UTF_8))));
    }

    private static void awaitState(Api homework, String path, String state) throws InterruptedException {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        String current = null;
        while (System.nanoTime() < deadline) {
            current = homework.get(path).json().get("review").get("state").asString();
            if (current.equals(state)) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("The review is " + current + ", not " + state + ", after " + PATIENCE);
    }

    /** Waits until a review chat holds its question but not yet its review: that review is streaming. */
    private static void awaitAReviewStreaming(Api chats, List<JsonNode> submissions) throws InterruptedException {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (System.nanoTime() < deadline) {
            for (JsonNode submission : submissions) {
                JsonNode messages = chats.get(
                                "/api/v1/chats/" + submission.get("chatId").asString() + "/messages")
                        .json();
                if (messages.get("total").asInt() == 1) {
                    return;
                }
            }
            Thread.sleep(50);
        }
        throw new AssertionError("No review started within " + PATIENCE);
    }

    private static JsonNode awaitReviewed(Api homework, String homeworkId, JsonNode submission)
            throws InterruptedException {
        String path = "/v1/homeworks/" + homeworkId + "/submissions/"
                + submission.get("id").asString();
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        JsonNode current = submission;
        while (System.nanoTime() < deadline) {
            current = homework.get(path).json();
            if (current.get("review").get("state").asString().equals("done")) {
                return current;
            }
            Thread.sleep(250);
        }
        throw new AssertionError("Not reviewed within " + PATIENCE + ": " + current);
    }

    private static JsonNode created(Reply reply) {
        assertThat(reply.status()).as(reply.toString()).isEqualTo(201);
        return reply.json();
    }
}
