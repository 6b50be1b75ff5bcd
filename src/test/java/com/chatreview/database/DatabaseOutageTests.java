package com.chatreview.database;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.support.Api;
import com.chatreview.support.Api.Multipart;
import com.chatreview.support.Api.Reply;
import com.chatreview.support.ChatSocket;
import com.chatreview.support.ServiceProcess;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The service's PostgreSQL stops in the middle of REST, WebSocket and review traffic, then comes back (docs/api.md,
 * Conventions and The WebSocket): meanwhile every request that needs it is answered 503 {@code SERVICE_UNAVAILABLE} with {@code Retry-After}
 * within 5 s, never 500; a new WebSocket is told to come back and closed 1013; a frame on an open one gets
 * {@code SERVICE_UNAVAILABLE} and the connection stays; readiness is DOWN. Afterwards, by itself: readiness UP,
 * everything acknowledged before is there, the open connection is answered again, every review is done. Not an
 * {@code *IntegrationTests} class: the service runs in its own JVM on a PostgreSQL the test owns.
 */
@Tag("process")
class DatabaseOutageTests {

    static final Duration ANSWERED_WITHIN = Duration.ofSeconds(5);
    static final Duration PATIENCE = Duration.ofSeconds(120);
    static final int SUBMISSIONS = 4;

    @AutoClose
    static ServiceProcess service;

    @BeforeAll
    static void prepare() throws IOException, InterruptedException {
        service = ServiceProcess.onOwnPostgres(
                "database-outage",
                Map.of(
                        // reviews slow enough that the outage lands while some run and others wait
                        "ASSISTANT_OFFLINETOKENDELAY", "10ms",
                        "REVIEW_CONCURRENCY", "2",
                        "REVIEW_POLLINTERVAL", "250ms",
                        "REVIEW_HEARTBEAT", "500ms",
                        "REVIEW_MISSEDHEARTBEATS", "4",
                        "RATE_LIMIT_REST_PER_MINUTE", "10000"));
        service.start();
    }

    @Test
    void anOutageIsAnswered503AndTheServiceRecoversByItselfLosingNothing() throws Exception {
        int port = service.port();
        String apiKey = service.newTenant("outage");
        String unusedKey = service.newTenant("outage, not yet seen");
        Api chats = new Api(port).with("X-API-Key", apiKey);
        Api homework = new Api(port).with("x-tenant-api-secret", apiKey);
        String chatId = created(chats.post("/api/v1/chats", "{\"user_id\": \"student\"}"))
                .get("id")
                .asString();
        String homeworkId = newHomework(homework);

        try (ChatSocket socket = ChatSocket.connect(port, apiKey, "student", chatId)) {
            socket.awaitEvent("connection_established");
            socket.sendContent("asked before the outage");
            socket.awaitReplyEnd();
            List<JsonNode> submissions = new ArrayList<>();
            for (int i = 0; i < SUBMISSIONS; i++) {
                submissions.add(created(
                        homework.upload("/v1/homeworks/" + homeworkId + "/submissions", solution("student-" + i, i))));
            }

            service.postgres().stop();

            Reply readiness = await(ANSWERED_WITHIN, () -> {
                Reply reply = new Api(port).get("/actuator/health/readiness");
                return reply.status() == 503 ? reply : null;
            });
            assertThat(readiness.json().get("status").asString()).isEqualTo("DOWN");
            assertThat(new Api(port).get("/actuator/health/liveness").status())
                    .as("the process is alive; restarting it would not bring the database back")
                    .isEqualTo(200);

            assertServiceUnavailable(() -> chats.get("/api/v1/chats/" + chatId));
            assertServiceUnavailable(() -> chats.get("/api/v1/chats/" + chatId + "/messages"));
            assertServiceUnavailable(() -> chats.post("/api/v1/chats", "{\"user_id\": \"student\"}"));
            assertServiceUnavailable(() -> homework.get("/v1/homeworks/" + homeworkId));
            assertServiceUnavailable(() ->
                    homework.upload("/v1/homeworks/" + homeworkId + "/submissions", solution("during-the-outage", 99)));
            assertServiceUnavailable(
                    () -> new Api(port).with("X-API-Key", unusedKey).get("/api/v1/chats/" + chatId));

            socket.sendContent("asked during the outage");
            JsonNode refused = socket.awaitEvent("error");
            assertThat(refused.get("error_code").asString()).isEqualTo("SERVICE_UNAVAILABLE");
            assertThat(refused.get("details").get("retry_after_ms").asLong()).isPositive();
            assertThat(socket.isOpen()).isTrue();

            try (ChatSocket latecomer = ChatSocket.connect(port, apiKey, "student", chatId)) {
                JsonNode turnedAway = latecomer.awaitEvent("error");
                assertThat(turnedAway.get("error_code").asString()).isEqualTo("SERVICE_UNAVAILABLE");
                assertThat(turnedAway.get("details").get("retry_after_ms").asLong())
                        .isPositive();
                assertThat(latecomer.awaitClose()).isEqualTo(1013);
            }

            service.postgres().startAgain();
            Instant back = Instant.now();

            await(Duration.ofSeconds(15), () -> {
                Reply reply = new Api(port).get("/actuator/health/readiness");
                return reply.status() == 200 ? reply : null;
            });
            JsonNode chat = chats.get("/api/v1/chats/" + chatId).json();
            assertThat(chat.get("message_count").asLong())
                    .as("the question and reply acknowledged before the outage, nothing of the refused frame")
                    .isEqualTo(2);
            socket.sendContent("asked after the outage");
            assertThat(socket.awaitEvent("message_received").get("content").asString())
                    .isEqualTo("asked after the outage");
            socket.awaitReplyEnd();
            assertThat(Duration.between(back, Instant.now())).isLessThan(Duration.ofSeconds(30));

            submissions.add(created(homework.upload(
                    "/v1/homeworks/" + homeworkId + "/submissions", solution("after-the-outage", 100))));
            for (JsonNode submission : submissions) {
                JsonNode reviewed = awaitReviewed(homework, homeworkId, submission);
                assertThat(reviewed.get("grade").asString()).matches("[A-F]");
            }
        }
    }

    private static void assertServiceUnavailable(Supplier<Reply> request) {
        Instant asked = Instant.now();
        Reply reply = request.get();
        assertThat(Duration.between(asked, Instant.now())).as(reply.toString()).isLessThan(ANSWERED_WITHIN);
        assertThat(reply.status()).as(reply.toString()).isEqualTo(503);
        assertThat(reply.json().get("code").asString()).isEqualTo("SERVICE_UNAVAILABLE");
        assertThat(reply.json().get("fix").asString()).isNotBlank();
        assertThat(Long.parseLong(reply.header("Retry-After"))).isPositive();
    }

    private static String newHomework(Api homework) {
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

    private static Multipart solution(String studentId, int attempt) {
        String code = "def add(a, b):\n    # attempt " + attempt + "\n    return a + b\n";
        return new Multipart()
                .field("studentId", studentId)
                .file("files", "main.py", "text/x-python", code.getBytes(StandardCharsets.UTF_8));
    }

    private static JsonNode awaitReviewed(Api homework, String homeworkId, JsonNode submission)
            throws InterruptedException {
        String path = "/v1/homeworks/" + homeworkId + "/submissions/"
                + submission.get("id").asString();
        return await(PATIENCE, () -> {
            JsonNode current = homework.get(path).json();
            return current.get("review").get("state").asString().equals("done") ? current : null;
        });
    }

    private static JsonNode created(Reply reply) {
        assertThat(reply.status()).as(reply.toString()).isEqualTo(201);
        return reply.json();
    }

    private static <T> T await(Duration patience, Supplier<T> probe) throws InterruptedException {
        Instant deadline = Instant.now().plus(patience);
        while (true) {
            T answer = probe.get();
            if (answer != null) {
                return answer;
            }
            assertThat(Instant.now()).as("within %s", patience).isBefore(deadline);
            Thread.sleep(200);
        }
    }
}
