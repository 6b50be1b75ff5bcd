package com.chatreview.submission;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.support.Api;
import com.chatreview.support.Api.Multipart;
import com.chatreview.support.Api.Reply;
import com.chatreview.support.ServiceProcess;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * "The files are stored durably before the 201 is sent" (docs/api.md, Homework), tested the hard way: the real service in
 * a JVM of its own on the embedded PostgreSQL, killed with SIGKILL right after the 201, then started again on the
 * same {@code DATA_DIR}. Not an {@code *IntegrationTests} class: it brings its own database, so it runs once.
 */
@Tag("process")
class SubmissionDurabilityTests {

    static ServiceProcess service;

    @BeforeAll
    static void prepare() throws IOException {
        service = new ServiceProcess("durability", Map.of());
    }

    @AfterAll
    static void stopEverything() throws IOException {
        service.close();
    }

    @Test
    void anAcknowledgedSubmissionSurvivesAKill() throws Exception {
        service.start();
        int port = service.port();
        Api admin = new Api(port).with("X-Admin-Token", ServiceProcess.ADMIN_TOKEN);
        Reply tenant = admin.post("/admin/v1/tenants", "{\"name\": \"durability\"}");
        assertThat(tenant.status()).as(tenant.toString()).isEqualTo(201);
        String apiKey = tenant.json().get("api_key").asString();
        Api api = new Api(port).with("x-tenant-api-secret", apiKey);
        String courseId = created(api.post("/v1/courses", "{\"teacherId\": \"teacher-1\", \"name\": \"Algebra\"}"))
                .get("id")
                .asString();
        String homeworkId = created(api.post("/v1/homeworks", """
                        {"teacherId": "teacher-1", "courseId": "%s", "assignmentId": "hw-1",
                         "files": [{"fileType": "task", "fileName": "task.md", "content": "Sum 1 and 2."}]}""".formatted(courseId)))
                .get("id")
                .asString();
        Map<String, byte[]> sent = Map.of(
                "main.py", "print(1 + 2)\n".getBytes(StandardCharsets.UTF_8),
                "notes.md", "# Notes\nIt prints 3.\n".getBytes(StandardCharsets.UTF_8),
                "data.bin", bytes(300_000));
        Multipart upload = new Multipart().field("studentId", "student-1");
        List<String> order = List.of("main.py", "notes.md", "data.bin");
        order.forEach(name -> upload.file("files", name, "application/octet-stream", sent.get(name)));

        JsonNode submission = created(api.upload("/v1/homeworks/" + homeworkId + "/submissions", upload));
        service.kill();

        service.start();
        String path = "/v1/homeworks/" + homeworkId + "/submissions/"
                + submission.get("id").asString();
        Reply after = api.get(path);
        assertThat(after.status()).as(after.toString()).isEqualTo(200);
        // the review may have run since: what was acknowledged is all there, unchanged
        for (String field : List.of("id", "homeworkId", "chatId", "chatIframeUrl", "createdAt", "studentId", "files")) {
            assertThat(after.json().get(field)).as(field).isEqualTo(submission.get(field));
        }
        JsonNode files = after.json().get("files");
        assertThat(files.size()).isEqualTo(3);
        for (int i = 0; i < order.size(); i++) {
            byte[] content = Objects.requireNonNull(sent.get(order.get(i)), "every file in the order was sent");
            assertThat(files.get(i).get("fileName").asString()).isEqualTo(order.get(i));
            assertThat(files.get(i).get("size").asLong()).isEqualTo(content.length);
            assertThat(files.get(i).get("sha256").asString()).isEqualTo(sha256(content));
        }
        assertThat(api.get("/v1/homeworks/" + homeworkId).status()).isEqualTo(200);
        Reply chat = new Api(port)
                .with("X-API-Key", apiKey)
                .get("/api/v1/chats/" + submission.get("chatId").asString());
        assertThat(chat.status()).as(chat.toString()).isEqualTo(200);
        assertThat(chat.json().get("user_id").asString()).isEqualTo("student-1");
        assertThat(new Api(port)
                        .with("x-tenant-api-secret", "wrong")
                        .get("/v1/homeworks")
                        .status())
                .isEqualTo(401);
    }

    private static JsonNode created(Reply reply) {
        assertThat(reply.status()).as(reply.toString()).isEqualTo(201);
        return reply.json();
    }

    private static byte[] bytes(int size) {
        byte[] bytes = new byte[size];
        for (int i = 0; i < size; i++) {
            bytes[i] = (byte) (i * 31 + i / 256);
        }
        return bytes;
    }

    private static String sha256(byte[] bytes) throws NoSuchAlgorithmException {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    }
}
