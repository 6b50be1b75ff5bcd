package com.chatreview.idempotency;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.support.Api;
import com.chatreview.support.Api.Reply;
import com.chatreview.support.IntegrationTest;
import com.chatreview.support.TestService;
import com.chatreview.support.TestTenant;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

/** {@code Idempotency-Key} on the two creating endpoints (docs/decisions.md). */
@IntegrationTest
class IdempotencyIntegrationTests {

    TestService service;

    @Autowired
    DataSource dataSource;

    @Autowired
    JdbcClient jdbc;

    TestTenant tenant;
    Api api;
    String key;

    @BeforeEach
    void newTenant(TestService service) {
        this.service = service;
        tenant = service.newTenant("idempotency-tests");
        api = tenant.chats();
        key = "key-" + UUID.randomUUID();
    }

    @Test
    void aRepeatedCreateReplaysTheFirstResponseAndStoresOneChat() {
        String body = "{\"user_id\": \"student-1\", \"title\": \"Once\", \"metadata\": {\"n\": 1}}";

        Reply first = api.with("Idempotency-Key", key).post("/api/v1/chats", body);
        Reply replay = api.with("Idempotency-Key", key).post("/api/v1/chats", body);
        Reply replayWithSlash = api.with("Idempotency-Key", key).post("/api/v1/chats/", body);

        assertThat(first.status()).isEqualTo(201);
        assertThat(first.header("Idempotent-Replayed")).isNull();
        assertThat(first.header("Content-Type")).startsWith("application/json");
        for (Reply again : new Reply[] {replay, replayWithSlash}) {
            assertThat(again.status()).isEqualTo(201);
            assertThat(again.header("Idempotent-Replayed")).isEqualTo("true");
            assertThat(again.header("Content-Type")).startsWith("application/json");
            assertThat(again.text()).isEqualTo(first.text());
        }
        Reply listed = api.get("/api/v1/chats/user/student-1");
        assertThat(listed.json().get("total").asInt()).isEqualTo(1);
        assertThat(listed.json().get("chats").get(0).get("id").asString())
                .isEqualTo(first.json().get("id").asString());
    }

    /** A request that failed stored nothing, so its key is still free: the corrected request with it creates. */
    @Test
    void aFailedRequestIsNotRecordedAndItsKeyCarriesTheCorrectedOne() {
        Reply refused = api.with("Idempotency-Key", key).post("/api/v1/chats", "{\"title\": \"no user\"}");
        Reply corrected = api.with("Idempotency-Key", key).post("/api/v1/chats", "{\"user_id\": \"student-2\"}");

        assertThat(refused.status()).isEqualTo(400);
        assertThat(corrected.status()).as(corrected.toString()).isEqualTo(201);
        assertThat(corrected.header("Idempotent-Replayed")).isNull();
        assertThat(api.get("/api/v1/chats/user/student-2").json().get("total").asInt())
                .isEqualTo(1);
    }

    /** The same request is the same JSON, however its fields are ordered and spaced. */
    @Test
    void fieldOrderAndSpacingDoNotMakeAnotherRequest() {
        Reply first = api.with("Idempotency-Key", key)
                .post(
                        "/api/v1/chats",
                        "{\"user_id\":\"student-3\",\"title\":\"T\",\"metadata\":{\"a\":1,\"b\":[1,2]}}");
        Reply reordered = api.with("Idempotency-Key", key)
                .post(
                        "/api/v1/chats",
                        "{\n  \"metadata\" : { \"b\" : [ 1 , 2 ], \"a\" : 1 },\n  \"title\": \"T\",  \"user_id\" : \"student-3\"\n}");

        assertThat(first.status()).isEqualTo(201);
        assertThat(reordered.status()).as(reordered.toString()).isEqualTo(201);
        assertThat(reordered.header("Idempotent-Replayed")).isEqualTo("true");
        assertThat(reordered.json().get("id").asString())
                .isEqualTo(first.json().get("id").asString());
        Reply changed = api.with("Idempotency-Key", key)
                .post(
                        "/api/v1/chats",
                        "{\"user_id\":\"student-3\",\"title\":\"T\",\"metadata\":{\"a\":1,\"b\":[2,1]}}");
        assertThat(changed.status()).as("an array's order is its content").isEqualTo(422);
    }

    /**
     * Real requests racing with one key: exactly one creates; every other either replays it or is told the key is
     * in use (409), never a second chat, never an error. Bursts until one 409 was seen (each burst holds the
     * promise whether or not the requests overlapped).
     */
    @Test
    void requestsRacingWithOneKeyCreateOnce() throws Exception {
        int conflicts = 0;
        for (int burst = 0; burst < 10 && conflicts == 0; burst++) {
            String raceKey = "race-" + burst + "-" + UUID.randomUUID();
            String user = "racer-" + burst;
            String body = "{\"user_id\": \"" + user + "\"}";
            java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
            List<java.util.concurrent.Future<Reply>> racing = new java.util.ArrayList<>();
            try (var threads = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor()) {
                for (int i = 0; i < 12; i++) {
                    racing.add(threads.submit(() -> {
                        go.await();
                        return api.with("Idempotency-Key", raceKey).post("/api/v1/chats", body);
                    }));
                }
                go.countDown();
            }
            java.util.Set<String> ids = new java.util.HashSet<>();
            int created = 0;
            for (java.util.concurrent.Future<Reply> answer : racing) {
                Reply reply = answer.get();
                if (reply.status() == 201) {
                    ids.add(reply.json().get("id").asString());
                    created += reply.header("Idempotent-Replayed") == null ? 1 : 0;
                } else {
                    assertThat(reply.status()).as(reply.toString()).isEqualTo(409);
                    assertThat(reply.json().get("code").asString()).isEqualTo("IDEMPOTENCY_KEY_IN_USE");
                    conflicts++;
                }
            }
            assertThat(created).as("answers that created").isEqualTo(1);
            assertThat(ids).hasSize(1);
            assertThat(api.get("/api/v1/chats/user/" + user).json().get("total").asInt())
                    .isEqualTo(1);
        }
        assertThat(conflicts)
                .as("a request that found the key in use by a racing one")
                .isPositive();
    }

    @Test
    void withoutAKeyEveryCreateCreates() {
        String body = "{\"user_id\": \"student-2\"}";

        Reply first = api.post("/api/v1/chats", body);
        Reply second = api.post("/api/v1/chats", body);

        assertThat(second.json().get("id").asString())
                .isNotEqualTo(first.json().get("id").asString());
        assertThat(second.header("Idempotent-Replayed")).isNull();
        assertThat(api.get("/api/v1/chats/user/student-2").json().get("total").asInt())
                .isEqualTo(2);
    }

    @Test
    void theSameKeyWithAnotherRequestIs422() {
        Reply first = api.with("Idempotency-Key", key).post("/api/v1/chats", "{\"user_id\": \"student-3\"}");

        Reply reused = api.with("Idempotency-Key", key).post("/api/v1/chats", "{\"user_id\": \"student-4\"}");

        assertThat(first.status()).isEqualTo(201);
        assertThat(reused.status()).isEqualTo(422);
        assertThat(reused.header("Content-Type")).startsWith("application/problem+json");
        assertThat(reused.json().get("code").asString()).isEqualTo("IDEMPOTENCY_KEY_REUSED");
        assertThat(reused.json().get("fix").asString()).isNotBlank();
        assertThat(api.get("/api/v1/chats/user/student-4").status()).isEqualTo(404);
        assertThat(api.with("Idempotency-Key", key)
                        .post("/api/v1/chats", "{\"user_id\": \"student-3\"}")
                        .header("Idempotent-Replayed"))
                .isEqualTo("true");
    }

    @Test
    void aKeyIsAtMost255Characters() {
        Reply tooLong =
                api.with("Idempotency-Key", "k".repeat(256)).post("/api/v1/chats", "{\"user_id\": \"student-5\"}");

        assertThat(tooLong.status()).isEqualTo(400);
        assertThat(tooLong.json().get("code").asString()).isEqualTo("VALIDATION_ERROR");
        assertThat(tooLong.json().get("errors").get(0).get("field").asString()).isEqualTo("Idempotency-Key");
        assertThat(tooLong.json().get("fix").asString()).isNotBlank();
        assertThat(api.get("/api/v1/chats/user/student-5").status()).isEqualTo(404);

        Reply longest =
                api.with("Idempotency-Key", "k".repeat(255)).post("/api/v1/chats", "{\"user_id\": \"student-5\"}");
        assertThat(longest.status()).isEqualTo(201);
    }

    @Test
    void keysBelongToTheirTenant() {
        String body = "{\"user_id\": \"student-6\"}";
        Reply ofA = api.with("Idempotency-Key", key).post("/api/v1/chats", body);
        TestTenant other = service.newTenant("idempotency-other");

        Reply ofB = other.chats().with("Idempotency-Key", key).post("/api/v1/chats", body);

        assertThat(ofB.status()).isEqualTo(201);
        assertThat(ofB.header("Idempotent-Replayed")).isNull();
        assertThat(ofB.json().get("id").asString())
                .isNotEqualTo(ofA.json().get("id").asString());
        assertThat(ofB.json().get("tenant_id").asString()).isEqualTo(other.id());
        Reply differentBodyForB = other.chats()
                .with("Idempotency-Key", "only-b-" + key)
                .post("/api/v1/chats", "{\"user_id\": \"student-7\"}");
        assertThat(differentBodyForB.status()).isEqualTo(201);
        assertThat(api.with("Idempotency-Key", "only-b-" + key)
                        .post("/api/v1/chats", body)
                        .status())
                .isEqualTo(201);
    }

    @Test
    void whileTheFirstRequestHoldsTheKeyASecondIs409() throws Exception {
        String body = "{\"user_id\": \"student-8\"}";
        try (Connection holder = dataSource.getConnection()) {
            execute(holder, "SELECT pg_advisory_lock(?)", lockId(tenant.id(), key));
            try {
                Reply inUse = api.with("Idempotency-Key", key).post("/api/v1/chats", body);

                assertThat(inUse.status()).as(inUse.toString()).isEqualTo(409);
                assertThat(inUse.header("Content-Type")).startsWith("application/problem+json");
                assertThat(inUse.json().get("code").asString()).isEqualTo("IDEMPOTENCY_KEY_IN_USE");
                assertThat(inUse.json().get("fix").asString()).isNotBlank();
                assertThat(api.with("Idempotency-Key", "other-" + key)
                                .post("/api/v1/chats", body)
                                .status())
                        .isEqualTo(201);
            } finally {
                execute(holder, "SELECT pg_advisory_unlock(?)", lockId(tenant.id(), key));
            }
        }

        Reply afterwards = api.with("Idempotency-Key", key).post("/api/v1/chats", body);

        assertThat(afterwards.status()).isEqualTo(201);
        assertThat(afterwards.header("Idempotent-Replayed")).isNull();
        assertThat(api.get("/api/v1/chats/user/student-8").json().get("total").asInt())
                .isEqualTo(2);
    }

    @Test
    void theSubmissionUploadReplaysToo() {
        Api homework = tenant.homework();
        String course = homework.post("/v1/courses", "{\"teacherId\": \"t-1\", \"name\": \"Course\"}")
                .json()
                .get("id")
                .asString();
        String homeworkId = homework.post("/v1/homeworks", """
                        {"teacherId": "t-1", "courseId": "%s", "assignmentId": "hw-1",
                         "files": [{"fileType": "task", "fileName": "task.md", "content": "Add 1 and 1"}]}""".formatted(course))
                .json()
                .get("id")
                .asString();
        String path = "/v1/homeworks/" + homeworkId + "/submissions";

        Reply first = homework.with("Idempotency-Key", key)
                .upload(path, new Api.Multipart().field("studentId", "s-1").file("answer.txt", "2"));
        Reply replay = homework.with("Idempotency-Key", key)
                .upload(path, new Api.Multipart().field("studentId", "s-1").file("answer.txt", "2"));
        Reply otherFiles = homework.with("Idempotency-Key", key)
                .upload(path, new Api.Multipart().field("studentId", "s-1").file("answer.txt", "3"));

        assertThat(first.status()).as(first.toString()).isEqualTo(201);
        assertThat(replay.status()).isEqualTo(201);
        assertThat(replay.header("Idempotent-Replayed")).isEqualTo("true");
        assertThat(replay.json().get("id").asString())
                .isEqualTo(first.json().get("id").asString());
        assertThat(replay.json().get("chatId").asString())
                .isEqualTo(first.json().get("chatId").asString());
        assertThat(otherFiles.status()).isEqualTo(422);
        assertThat(otherFiles.json().get("code").asString()).isEqualTo("IDEMPOTENCY_KEY_REUSED");
        assertThat(homework.get(path).json().get("total").asInt()).isEqualTo(1);
        assertThat(jdbc.sql("SELECT count(*) FROM chats WHERE tenant_id = :tenant")
                        .param("tenant", tenant.uuid())
                        .query(Long.class)
                        .single())
                .isEqualTo(1);
    }

    /** The advisory lock {@link IdempotentRequests} takes: the first 8 bytes of sha256(tenant + "\n" + key). */
    private static long lockId(String tenantId, String key) throws Exception {
        byte[] digest =
                MessageDigest.getInstance("SHA-256").digest((tenantId + "\n" + key).getBytes(StandardCharsets.UTF_8));
        return ByteBuffer.wrap(digest).getLong();
    }

    private static void execute(Connection connection, String sql, long id) throws Exception {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setLong(1, id);
            statement.executeQuery().close();
        }
    }
}
