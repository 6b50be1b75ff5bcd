package com.chatreview.submission;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.homework.Course;
import com.chatreview.homework.HomeworkCatalog;
import com.chatreview.homework.NewHomework;
import com.chatreview.support.Api;
import com.chatreview.support.Api.Multipart;
import com.chatreview.support.Api.Reply;
import com.chatreview.support.IntegrationTest;
import com.chatreview.support.TestService;
import com.chatreview.support.TestTenant;
import com.chatreview.tenancy.TenantId;
import java.net.http.HttpRequest.BodyPublishers;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;

/** Endpoint 8 and the rest of docs/api.md, Homework (reading, deciding, idempotent upload) over HTTP. */
@IntegrationTest
class SubmissionApiIntegrationTests {

    static final Pattern TIMESTAMP = Pattern.compile("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z");
    static final Pattern UUID_TEXT = Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
    static final int MIB = 1024 * 1024;
    static final byte[] PNG_MAGIC = {
        (byte) 0x89,
        'P',
        'N',
        'G',
        '\r',
        '\n',
        0x1a,
        '\n',
        0,
        0,
        0,
        0x0d,
        'I',
        'H',
        'D',
        'R',
        0,
        0,
        0,
        1,
        0,
        0,
        0,
        1,
        8,
        6,
        0,
        0,
        0
    };

    TestService service;

    @Autowired
    HomeworkCatalog catalog;

    @Autowired
    JdbcClient jdbc;

    TestTenant tenant;
    Api api;
    String homeworkId;

    @BeforeEach
    void newTenantWithAHomework(TestService service) {
        this.service = service;
        tenant = service.newTenant("submission-tests");
        api = tenant.homework();
        homeworkId = publishHomework(tenant);
    }

    @Test
    void uploadsASubmissionAndOpensItsReviewChat() {
        byte[] code = "print(sum([1, 2]))\n".getBytes(StandardCharsets.UTF_8);
        byte[] notes = "I used sum().".getBytes(StandardCharsets.UTF_8);

        Reply reply = upload(new Multipart()
                .field("studentId", "student-1")
                .file("files", "main.py", "text/x-python", code)
                .file("files", "notes.txt", "text/plain", notes));

        assertThat(reply.status()).as(reply.toString()).isEqualTo(201);
        assertThat(reply.header("Content-Type")).startsWith("application/json");
        assertThat(reply.fieldNames())
                .containsExactly(
                        "id",
                        "homeworkId",
                        "chatId",
                        "status",
                        "chatIframeUrl",
                        "createdAt",
                        "analysis",
                        "grade",
                        "aiGrade",
                        "criteria",
                        "aiCriteria",
                        "findings",
                        "flags",
                        "tests",
                        "studentId",
                        "updatedAt",
                        "files",
                        "review",
                        "decisions",
                        "comment",
                        "regradeRequests",
                        "metadata");
        JsonNode submission = reply.json();
        String chatId = submission.get("chatId").asString();
        assertThat(submission.get("id").asString()).matches(UUID_TEXT);
        assertThat(submission.get("homeworkId").asString()).isEqualTo(homeworkId);
        assertThat(chatId).matches(UUID_TEXT);
        assertThat(submission.get("status").asString()).isEqualTo("submitted");
        assertThat(submission.get("chatIframeUrl").asString())
                .isEqualTo("http://127.0.0.1:" + service.port() + "/chat/?chat_id=" + chatId);
        assertThat(submission.get("createdAt").asString()).matches(TIMESTAMP);
        assertThat(submission.get("analysis").isString()).isTrue();
        assertThat(submission.get("analysis").asString()).isEmpty();
        assertThat(submission.get("grade").isString()).isTrue();
        assertThat(submission.get("grade").asString()).isEmpty();
        assertThat(submission.get("studentId").asString()).isEqualTo("student-1");
        assertThat(submission.get("updatedAt").asString()).matches(TIMESTAMP);
        JsonNode files = submission.get("files");
        assertThat(files.size()).isEqualTo(2);
        assertThat(names(files.get(0))).containsExactly("id", "fileName", "contentType", "size", "sha256");
        assertThat(files.get(0).get("id").asString()).matches(UUID_TEXT);
        assertThat(files.get(0).get("fileName").asString()).isEqualTo("main.py");
        assertThat(files.get(0).get("size").isIntegralNumber()).isTrue();
        assertThat(files.get(0).get("size").asLong()).isEqualTo(code.length);
        assertThat(files.get(0).get("sha256").asString()).isEqualTo(sha256(code));
        assertThat(files.get(1).get("fileName").asString()).isEqualTo("notes.txt");
        assertThat(files.get(1).get("contentType").asString()).startsWith("text/plain");
        assertThat(files.get(1).get("size").asLong()).isEqualTo(notes.length);
        assertThat(files.get(1).get("sha256").asString()).isEqualTo(sha256(notes));
        assertThat(storedContent(files.get(0).get("id").asString())).isEqualTo(code);
        assertThat(stored()).isEqualTo(new Stored(1, 2, 1));

        Reply chat = tenant.chats().get("/api/v1/chats/" + chatId);
        assertThat(chat.status()).isEqualTo(200);
        assertThat(chat.json().get("user_id").asString()).isEqualTo("student-1");
        assertThat(chat.json().get("tenant_id").asString()).isEqualTo(tenant.id());
        assertThat(chat.json().get("status").asString()).isEqualTo("active");
        JsonNode config = chat.json().get("config");
        assertThat(config.get("kind").asString()).isEqualTo("homework_review");
        assertThat(config.get("homework_id").asString()).isEqualTo(homeworkId);
        assertThat(config.get("submission_id").asString())
                .isEqualTo(submission.get("id").asString());
        assertThat(config.get("metadata").isObject()).isTrue();
    }

    @Test
    void readsOneSubmissionAndListsThemByStudent() {
        JsonNode first = uploadOk("student-1", "a.py", "print(1)");
        JsonNode second = uploadOk("student-1", "a.py", "print(2)");
        JsonNode other = uploadOk("student-2", "b.py", "print(3)");
        String base = "/v1/homeworks/" + homeworkId + "/submissions";

        Reply one = api.get(base + "/" + first.get("id").asString());
        assertThat(one.status()).isEqualTo(200);
        assertThat(one.json()).isEqualTo(first);

        Reply mine = api.get(base + "?studentId=student-1");
        assertThat(mine.status()).isEqualTo(200);
        assertThat(mine.json().has("data")).isTrue();
        assertThat(idsOf(mine.json().get("data")))
                .containsExactly(second.get("id").asString(), first.get("id").asString());
        assertThat(mine.json().get("data").get(1)).isEqualTo(first);
        assertThat(idsOf(api.get(base + "?studentId=student-2").json().get("data")))
                .containsExactly(other.get("id").asString());
        assertThat(idsOf(api.get(base).json().get("data"))).hasSize(3);
        assertThat(api.get(base + "?studentId=nobody").json().get("data").size())
                .isZero();

        String otherHomework = publishHomework(tenant);
        for (String path : List.of(
                base + "/" + UUID.randomUUID(),
                base + "/not-a-uuid",
                "/v1/homeworks/" + otherHomework + "/submissions/"
                        + first.get("id").asString(),
                "/v1/homeworks/not-a-uuid/submissions/" + first.get("id").asString())) {
            Reply missing = api.get(path);
            assertThat(missing.status()).as(path).isEqualTo(404);
            assertThat(missing.json().get("code").asString()).isEqualTo("NOT_FOUND");
        }
        Api stranger = service.newTenant("submission-stranger").homework();
        assertThat(stranger.get(base + "/" + first.get("id").asString()).status())
                .isEqualTo(404);
        assertThat(stranger.get(base).status()).isEqualTo(404);
    }

    @Test
    void invalidUploadsAre400AndStoreNothing() {
        uploadOk("student-1", "kept.py", "print(0)");
        Stored before = stored();

        assertRejected(upload(new Multipart().field("studentId", "student-1")), 400, "files");
        Multipart eleven = new Multipart().field("studentId", "student-1");
        for (int i = 1; i <= 11; i++) {
            eleven.file("f" + i + ".txt", "file " + i);
        }
        assertRejected(upload(eleven), 400, "files");
        assertRejected(
                upload(new Multipart()
                        .field("studentId", "student-1")
                        .file("ok.txt", "fine")
                        .file("files", "empty.txt", "text/plain", new byte[0])),
                400,
                "files[1]");
        assertRejected(upload(new Multipart().file("ok.txt", "fine")), 400, "studentId");
        assertRejected(upload(new Multipart().field("studentId", "  ").file("ok.txt", "fine")), 400, "studentId");
        assertRejected(
                api.post(path(homeworkId), "{\"studentId\": \"student-1\", \"files\": [\"x\"]}"), 400, "Content-Type");
        Reply garbage = api.send(
                "POST",
                path(homeworkId),
                BodyPublishers.ofString("this is not a multipart body"),
                "multipart/form-data; boundary=nothing-here");
        assertRejected(garbage, 400, null);
        assertThat(garbage.header("Connection")).isEqualToIgnoringCase("close");
        Reply truncated = api.send(
                "POST",
                path(homeworkId),
                BodyPublishers.ofString("--b\r\nContent-Disposition: form-data; name=\"studentId\"\r\n\r\ns-1"
                        + "\r\n--b\r\nContent-Disposition: form-data; name=\"files\"; filename=\"a.txt\"\r\n\r\n"
                        + "truncated"),
                "multipart/form-data; boundary=b");
        assertRejected(truncated, 400, null);
        assertThat(truncated.header("Connection")).isEqualToIgnoringCase("close");
        assertRejected(
                api.send(
                        "POST",
                        path(homeworkId),
                        BodyPublishers.ofString("--b\r\n\r\n--b--\r\n"),
                        "multipart/form-data"),
                400,
                null);

        assertThat(stored()).isEqualTo(before);
    }

    @Test
    void aFileOver10MibOrARequestOver50MibIs413AndStoresNothing() {
        Stored before = stored();

        assertRejected(
                upload(new Multipart()
                        .field("studentId", "student-1")
                        .file("small.txt", "fine")
                        .file("files", "big.bin", "application/octet-stream", filled(10 * MIB + 1))),
                413,
                null);
        Multipart six = new Multipart().field("studentId", "student-1");
        for (int i = 1; i <= 6; i++) {
            six.file("files", "part-" + i + ".bin", "application/octet-stream", filled(9 * MIB));
        }
        assertRejected(upload(six), 413, null);
        assertThat(stored()).isEqualTo(before);

        byte[] exactly10Mib = filled(10 * MIB);
        Reply atTheLimit = upload(new Multipart()
                .field("studentId", "student-1")
                .file("files", "limit.bin", "application/octet-stream", exactly10Mib));
        assertThat(atTheLimit.status()).as(atTheLimit.toString()).isEqualTo(201);
        assertThat(atTheLimit.json().get("files").get(0).get("size").asLong()).isEqualTo(10L * MIB);
        assertThat(atTheLimit.json().get("files").get(0).get("sha256").asString())
                .isEqualTo(sha256(exactly10Mib));
    }

    @Test
    void aHomeworkThatIsUnknownOrOfAnotherTenantIs404AndStoresNothing() {
        TestTenant other = service.newTenant("submission-other");
        String theirs = publishHomework(other);
        Stored before = stored();

        for (String target : List.of(UUID.randomUUID().toString(), "not-a-uuid", "123", theirs)) {
            assertRejected(
                    api.upload(
                            path(target),
                            new Multipart().field("studentId", "s-1").file("a.py", "print(1)")),
                    404,
                    null);
        }

        assertThat(stored()).isEqualTo(before);
        assertThat(jdbc.sql("SELECT count(*) FROM submissions WHERE homework_id = :id")
                        .param("id", UUID.fromString(theirs))
                        .query(Long.class)
                        .single())
                .isZero();
    }

    @Test
    void fileNamesAreCleanedOfPathsAndControlCharacters() {
        Reply reply = upload(new Multipart()
                .field("studentId", "student-1")
                .file("../../etc/passwd", "root:x:0:0")
                .file("C:\\x\\y.txt", "windows")
                .file("invoice\u202egpj.exe", "bidi")
                .file("..", "dots")
                .file("/", "slash"));

        assertThat(reply.status()).as(reply.toString()).isEqualTo(201);
        List<String> names = fileNamesOf(reply.json());
        assertThat(names).containsExactly("passwd", "y.txt", "invoicegpj.exe", "file-4", "file-5");
        assertThat(jdbc.sql("SELECT file_name FROM submission_files WHERE submission_id = :id ORDER BY position")
                        .param("id", UUID.fromString(reply.json().get("id").asString()))
                        .query(String.class)
                        .list())
                .containsExactlyElementsOf(names);
    }

    @Test
    void controlCharactersInAnEncodedFileNameAreRemoved() {
        String body = "--b\r\nContent-Disposition: form-data; name=\"studentId\"\r\n\r\nstudent-1\r\n"
                + "--b\r\nContent-Disposition: form-data; name=\"files\"; filename=\"plain.txt\";"
                + " filename*=UTF-8''a%00b%07c%1B%E2%80%AEd%0A.txt\r\nContent-Type: text/plain\r\n\r\nhidden\r\n"
                + "--b--\r\n";

        Reply reply =
                api.send("POST", path(homeworkId), BodyPublishers.ofString(body), "multipart/form-data; boundary=b");

        assertThat(reply.status()).as(reply.toString()).isEqualTo(201);
        assertThat(fileNamesOf(reply.json())).containsExactly("abcd.txt");
    }

    @Test
    void aRawControlCharacterInAPartHeaderIsAMalformedBody() {
        Stored before = stored();

        assertRejected(upload(new Multipart().field("studentId", "student-1").file("a\u0000b.txt", "nul")), 400, null);

        assertThat(stored()).isEqualTo(before);
    }

    @Test
    void theContentTypeIsDetectedNotTrusted() {
        byte[] binary = new byte[256];
        for (int i = 0; i < binary.length; i++) {
            binary[i] = (byte) i;
        }

        Reply reply = upload(new Multipart()
                .field("studentId", "student-1")
                .file("files", "picture.txt", "text/plain", PNG_MAGIC)
                .file(
                        "files",
                        "solution.py",
                        "application/octet-stream",
                        "def f():\n    return 1\n".getBytes(StandardCharsets.UTF_8))
                .file("files", "notes.txt", "image/png", "just words".getBytes(StandardCharsets.UTF_8))
                .file("files", "all-bytes.dat", "text/plain", binary));

        assertThat(reply.status()).as(reply.toString()).isEqualTo(201);
        JsonNode files = reply.json().get("files");
        assertThat(files.get(0).get("contentType").asString()).isEqualTo("image/png");
        assertThat(files.get(1).get("contentType").asString())
                .startsWith("text/")
                .contains("python");
        assertThat(files.get(2).get("contentType").asString()).startsWith("text/plain");
        assertThat(files.get(3).get("contentType").asString()).doesNotStartWith("text/");
        assertThat(storedContent(files.get(3).get("id").asString())).isEqualTo(binary);
        assertThat(jdbc.sql("SELECT content_type FROM submission_files WHERE id = :id")
                        .param("id", UUID.fromString(files.get(0).get("id").asString()))
                        .query(String.class)
                        .single())
                .isEqualTo("image/png");
    }

    @Test
    void theTeacherApprovesOrAsksForRevision() {
        JsonNode submission = uploadOk("student-1", "a.py", "print(1)");
        String path = path(homeworkId) + "/" + submission.get("id").asString();

        Reply approved = api.patch(path, "{\"status\": \"approved\", \"teacherId\": \"teacher-1\"}");
        assertThat(approved.status()).as(approved.toString()).isEqualTo(200);
        assertThat(approved.json().get("status").asString()).isEqualTo("approved");
        assertThat(approved.json().get("id").asString())
                .isEqualTo(submission.get("id").asString());
        assertThat(approved.json().get("chatId").asString())
                .isEqualTo(submission.get("chatId").asString());
        assertThat(approved.json().get("files")).isEqualTo(submission.get("files"));
        assertThat(api.get(path).json().get("status").asString()).isEqualTo("approved");

        assertConflict(api.patch(path, "{\"status\": \"approved\"}"));
        assertConflict(api.patch(path, "{\"status\": \"submitted\"}"));
        assertConflict(api.patch(path, "{\"status\": \"reviewed\"}"));

        Reply revision = api.patch(path, "{\"status\": \"needs_revision\", \"teacherId\": \"teacher-2\"}");
        assertThat(revision.status()).isEqualTo(200);
        assertThat(revision.json().get("status").asString()).isEqualTo("needs_revision");
        assertConflict(api.patch(path, "{\"status\": \"needs_revision\"}"));
        Reply again = api.patch(path, "{\"status\": \"approved\"}");
        assertThat(again.status()).isEqualTo(200);
        assertThat(again.json().get("status").asString()).isEqualTo("approved");

        assertThat(jdbc.sql("""
                        SELECT from_status, to_status, decided_by FROM submission_decisions
                        WHERE submission_id = :id ORDER BY decided_at""")
                        .param("id", UUID.fromString(submission.get("id").asString()))
                        .query((rs, n) -> Arrays.asList(
                                rs.getString("from_status"), rs.getString("to_status"), rs.getString("decided_by")))
                        .list())
                .containsExactly(
                        Arrays.asList("submitted", "approved", "teacher-1"),
                        Arrays.asList("approved", "needs_revision", "teacher-2"),
                        Arrays.asList("needs_revision", "approved", null));
    }

    @Test
    void submittedCanGoStraightToNeedsRevisionButNotBackToSubmitted() {
        JsonNode submission = uploadOk("student-1", "a.py", "print(1)");
        String path = path(homeworkId) + "/" + submission.get("id").asString();

        assertConflict(api.patch(path, "{\"status\": \"submitted\"}"));
        assertConflict(api.patch(path, "{\"status\": \"reviewed\"}"));
        assertThat(api.patch(path, "{\"status\": \"needs_revision\"}").status()).isEqualTo(200);
        assertConflict(api.patch(path, "{\"status\": \"submitted\"}"));
        assertThat(api.get(path).json().get("status").asString()).isEqualTo("needs_revision");
    }

    @Test
    void anInvalidDecisionIs400AndAnUnknownSubmission404() {
        JsonNode submission = uploadOk("student-1", "a.py", "print(1)");
        String path = path(homeworkId) + "/" + submission.get("id").asString();

        for (String body : List.of(
                "{\"status\": \"done\"}",
                "{\"status\": \"APPROVED\"}",
                "{}",
                "{\"status\": 1}",
                "{\"status\": \"approved\", \"teacherId\": 7}",
                "not json")) {
            Reply reply = api.patch(path, body);
            assertThat(reply.status()).as(body).isEqualTo(400);
            assertThat(reply.json().get("code").asString()).isEqualTo("VALIDATION_ERROR");
        }
        assertThat(api.patch(path(homeworkId) + "/" + UUID.randomUUID(), "{\"status\": \"approved\"}")
                        .status())
                .isEqualTo(404);
        assertThat(api.patch(path(homeworkId) + "/not-a-uuid", "{\"status\": \"approved\"}")
                        .status())
                .isEqualTo(404);
        // the AI review may have run meanwhile; no teacher's decision was taken
        assertThat(api.get(path).json().get("status").asString()).isIn("submitted", "reviewed");
        assertThat(jdbc.sql("SELECT count(*) FROM submission_decisions WHERE submission_id = :id")
                        .param("id", UUID.fromString(submission.get("id").asString()))
                        .query(Long.class)
                        .single())
                .isZero();
    }

    @Test
    void anIdempotencyKeyReplaysTheFirstUpload() {
        Api keyed = api.with("Idempotency-Key", "upload-" + UUID.randomUUID());
        Multipart request = new Multipart()
                .field("studentId", "student-1")
                .file("a.py", "print(1)")
                .file("b.txt", "notes");

        Reply first = keyed.upload(path(homeworkId), request);
        Reply replayed = keyed.upload(
                path(homeworkId),
                new Multipart()
                        .field("studentId", "student-1")
                        .file("a.py", "print(1)")
                        .file("b.txt", "notes"));

        assertThat(first.status()).as(first.toString()).isEqualTo(201);
        assertThat(first.header("Idempotent-Replayed")).isNull();
        assertThat(replayed.status()).isEqualTo(201);
        assertThat(replayed.header("Idempotent-Replayed")).isEqualTo("true");
        assertThat(replayed.json()).isEqualTo(first.json());
        assertThat(stored()).isEqualTo(new Stored(1, 2, 1));

        for (Multipart different : List.of(
                new Multipart()
                        .field("studentId", "student-1")
                        .file("a.py", "print(2)")
                        .file("b.txt", "notes"),
                new Multipart().field("studentId", "student-1").file("a.py", "print(1)"),
                new Multipart()
                        .field("studentId", "student-2")
                        .file("a.py", "print(1)")
                        .file("b.txt", "notes"))) {
            Reply reused = keyed.upload(path(homeworkId), different);
            assertThat(reused.status()).as(reused.toString()).isEqualTo(422);
            assertThat(reused.header("Content-Type")).startsWith("application/problem+json");
            assertThat(reused.json().get("code").asString()).isEqualTo("IDEMPOTENCY_KEY_REUSED");
            assertThat(reused.json().get("fix").asString()).isNotBlank();
        }
        assertThat(stored()).isEqualTo(new Stored(1, 2, 1));

        Reply fresh = api.with("Idempotency-Key", "upload-" + UUID.randomUUID())
                .upload(
                        path(homeworkId),
                        new Multipart().field("studentId", "student-1").file("a.py", "print(1)"));
        assertThat(fresh.status()).isEqualTo(201);
        assertThat(fresh.json().get("id").asString())
                .isNotEqualTo(first.json().get("id").asString());
        assertThat(stored()).isEqualTo(new Stored(2, 3, 2));
    }

    /** What the tenant has stored: a rejected upload must leave all three counts as they were. */
    record Stored(long submissions, long files, long chats) {}

    private Stored stored() {
        UUID tenantId = tenant.uuid();
        return new Stored(
                count("SELECT count(*) FROM submissions WHERE tenant_id = :tenant", tenantId),
                count(
                        "SELECT count(*) FROM submission_files f JOIN submissions s ON s.id = f.submission_id"
                                + " WHERE s.tenant_id = :tenant",
                        tenantId),
                count("SELECT count(*) FROM chats WHERE tenant_id = :tenant", tenantId));
    }

    private long count(String sql, UUID tenantId) {
        return jdbc.sql(sql).param("tenant", tenantId).query(Long.class).single();
    }

    private byte[] storedContent(String fileId) {
        return jdbc.sql("SELECT content FROM submission_files WHERE id = :id")
                .param("id", UUID.fromString(fileId))
                .query(byte[].class)
                .single();
    }

    private void assertRejected(Reply reply, int status, @Nullable String field) {
        assertThat(reply.status()).as(reply.toString()).isEqualTo(status);
        assertThat(reply.header("Content-Type")).startsWith("application/problem+json");
        JsonNode problem = reply.json();
        assertThat(problem.get("status").asInt()).isEqualTo(status);
        assertThat(problem.get("code").asString())
                .isEqualTo(
                        switch (status) {
                            case 400 -> "VALIDATION_ERROR";
                            case 404 -> "NOT_FOUND";
                            case 413 -> "PAYLOAD_TOO_LARGE";
                            default -> throw new IllegalArgumentException("status " + status);
                        });
        assertThat(problem.get("fix").asString()).isNotBlank();
        assertThat(problem.get("request_id").asString()).isNotBlank();
        if (field != null) {
            List<String> fields = new ArrayList<>();
            problem.get("errors").forEach(error -> fields.add(error.get("field").asString()));
            assertThat(fields).as(reply.toString()).contains(field);
        }
    }

    private static void assertConflict(Reply reply) {
        assertThat(reply.status()).as(reply.toString()).isEqualTo(409);
        assertThat(reply.json().get("code").asString()).isEqualTo("CONFLICT");
        assertThat(reply.json().get("fix").asString()).isNotBlank();
    }

    private JsonNode uploadOk(String studentId, String fileName, String content) {
        Reply reply = upload(new Multipart().field("studentId", studentId).file(fileName, content));
        assertThat(reply.status()).as(reply.toString()).isEqualTo(201);
        return reply.json();
    }

    private Reply upload(Multipart multipart) {
        return api.upload(path(homeworkId), multipart);
    }

    private static String path(String homeworkId) {
        return "/v1/homeworks/" + homeworkId + "/submissions";
    }

    private String publishHomework(TestTenant owner) {
        TenantId tenantId = owner.tenantId();
        Course course = catalog.createCourse(tenantId, "teacher-1", "Algebra");
        return catalog.publish(
                        tenantId,
                        new NewHomework(
                                "teacher-1",
                                course.id().toString(),
                                "hw-" + UUID.randomUUID(),
                                "Sums",
                                List.of(
                                        new NewHomework.NewFile("task", "task.md", "Print the sum of 1 and 2."),
                                        new NewHomework.NewFile("solution", "solution.py", "print(1 + 2)"))))
                .id()
                .toString();
    }

    private static byte[] filled(int size) {
        byte[] bytes = new byte[size];
        Arrays.fill(bytes, (byte) 'x');
        return bytes;
    }

    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static List<String> fileNamesOf(JsonNode submission) {
        List<String> names = new ArrayList<>();
        submission.get("files").forEach(file -> names.add(file.get("fileName").asString()));
        return names;
    }

    static List<String> idsOf(JsonNode array) {
        List<String> ids = new ArrayList<>();
        array.forEach(item -> ids.add(item.get("id").asString()));
        return ids;
    }

    static List<String> names(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.propertyNames().forEach(names::add);
        return names;
    }
}
