package com.chatreview.privacy;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.lti.LtiPlatform;
import com.chatreview.support.Api;
import com.chatreview.support.Api.Reply;
import com.chatreview.support.ChatSocket;
import com.chatreview.support.Eventually;
import com.chatreview.support.IntegrationTest;
import com.chatreview.support.TestService;
import com.chatreview.support.TestTenant;
import com.chatreview.webhook.Receiver;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The erasure, driven by {@link PersonalData}: the user has a row in every table and column listed there (but what
 * is kept, the school's material naming its author), and after the erasure none of them holds anything of the user.
 * A new entry fails here until the test knows how to find the user's rows in it.
 */
@IntegrationTest
class EveryPersonalDataErasedIntegrationTests {

    @Autowired
    JdbcClient jdbc;

    @Test
    void theUserHasRowsInEveryListedTableAndNoneAfterTheErasure(TestService service) throws Exception {
        TestTenant tenant = service.newTenant("erasure-everything");
        Api chats = tenant.chats();
        String platformId = registeredPlatform(chats, "https://lms.erasure.example");
        // one id for all of it: an LMS learner who also chats and hands in over REST
        String user = LtiPlatform.STUDENT_PREFIX + platformId + ":sub-" + UUID.randomUUID();
        String words = "Zanzibar" + UUID.randomUUID().toString().substring(0, 8);
        Facts facts = new Facts(tenant.uuid(), user, words);

        try (Receiver receiver = new Receiver()) {
            assertThat(chats.post(
                                    "/api/v1/webhooks",
                                    "{\"url\": \"" + receiver.url() + "\", \"event_types\": [\"chat.message.created\","
                                            + " \"submission.created\", \"submission.reviewed\"]}")
                            .status())
                    .isEqualTo(201);
            String own = chats.with("Idempotency-Key", "erase-" + UUID.randomUUID())
                    .post("/api/v1/chats", "{\"user_id\": \"" + user + "\"}")
                    .json()
                    .get("id")
                    .asString();
            talk(tenant, user, own, "My own chat, " + words + ".");
            String othersChat = chats.post("/api/v1/chats", "{\"user_id\": \"teacher-1\"}")
                    .json()
                    .get("id")
                    .asString();
            talk(tenant, "teacher-1", othersChat, "The teacher's own question.");
            // flagged (contact details shared): a flag of the user's in another user's chat
            talk(
                    tenant,
                    user,
                    othersChat,
                    "Written in the teacher's chat, " + words + ". Call me on +49 151 2345 6789.");

            String homeworkId = tenant.publishHomework("erase-everything");
            String submission = tenant.upload(homeworkId, user, "answer.txt", "My answer, " + words + ".\n")
                    .get("id")
                    .asString();
            Eventually.until(
                    Duration.ofSeconds(30),
                    () -> !tenant.homework()
                            .get("/v1/homeworks/" + homeworkId + "/submissions/" + submission)
                            .json()
                            .get("grade")
                            .asString()
                            .isEmpty());
            assertThat(tenant.homework()
                            .patch(
                                    "/v1/homeworks/" + homeworkId + "/submissions/" + submission,
                                    "{\"status\": \"approved\", \"teacherId\": \"t-1\"}")
                            .status())
                    .isEqualTo(200);
            assertThat(tenant.homework()
                            .post(
                                    "/v1/homeworks/" + homeworkId + "/submissions/" + submission + "/regrade-requests",
                                    "{\"studentId\": \"" + user + "\", \"message\": \"Look again, " + words + ".\"}")
                            .status())
                    .isEqualTo(201);
            facts.chatIds = jdbc.sql("SELECT id::text FROM chats WHERE tenant_id = :tenant AND user_id = :user")
                    .param("tenant", tenant.uuid())
                    .param("user", user)
                    .query((row, number) -> row.getString(1))
                    .list();
            facts.submissionId = submission;
            rowsTheLmsLeaves(tenant.uuid(), UUID.fromString(platformId), user, UUID.fromString(homeworkId));

            String pageTag =
                    chats.get("/api/v1/chats/" + othersChat + "/messages").header("ETag");
            Map<PersonalData, Integer> before = counts(facts);
            assertThat(before)
                    .as("the user has rows in every listed table (the erasure's job comes with the erasure)")
                    .allSatisfy((entry, rows) -> {
                        if (entry != PersonalData.ERASURE_JOBS) {
                            assertThat(rows).as(entry.name()).isPositive();
                        }
                    });

            Reply started = chats.delete("/api/v1/users/" + user);
            assertThat(started.status()).as(started.toString()).isEqualTo(202);
            String erasureId = started.json().get("erasure_id").asString();
            Eventually.until(
                    Eventually.PATIENCE,
                    () -> chats.get("/api/v1/erasures/" + erasureId)
                            .json()
                            .get("status")
                            .asString()
                            .equals("done"));

            assertThat(counts(facts))
                    .as(
                            "nothing of the user is left in any listed table; webhook payloads left: %s",
                            jdbc.sql("SELECT ordering_key || ' ' || payload FROM webhook_deliveries"
                                            + " WHERE tenant_id = :tenant")
                                    .param("tenant", tenant.uuid())
                                    .query((row, number) -> row.getString(1))
                                    .list())
                    .allSatisfy(
                            (entry, rows) -> assertThat(rows).as(entry.name()).isZero());
            Reply revalidated = chats.with("If-None-Match", pageTag).get("/api/v1/chats/" + othersChat + "/messages");
            assertThat(revalidated.status())
                    .as("a cached page of the teacher's chat is stale: its tag changed with the emptied messages")
                    .isEqualTo(200);
            assertThat(revalidated.json().toString())
                    .as("the teacher's chat keeps its own messages, and its order")
                    .contains("The teacher's own question.")
                    .doesNotContain(words);
            assertThat(chats.delete("/api/v1/users/" + user).status())
                    .as("nothing is left to find the user by")
                    .isEqualTo(404);
        }
    }

    @Test
    void aUserKnownOnlyFromTheLmsOrFromOtherUsersChatsIsErased(TestService service) throws Exception {
        TestTenant tenant = service.newTenant("erasure-only-elsewhere");
        Api chats = tenant.chats();
        String platformId = registeredPlatform(chats, "https://lms.elsewhere.example");
        String learner = LtiPlatform.STUDENT_PREFIX + platformId + ":never-handed-in";
        jdbc.sql("""
                        INSERT INTO lti_grade_targets (platform_id, user_id, homework_id, line_item_url, tenant_id, sub,
                                                       launched_at)
                        VALUES (:platform, :user, :homework, 'http://127.0.0.1:9/lineitems/1', :tenant,
                                'never-handed-in', now())""")
                .param("platform", UUID.fromString(platformId))
                .param("user", learner)
                .param("homework", UUID.randomUUID())
                .param("tenant", tenant.uuid())
                .update();
        String studentsChat = chats.post("/api/v1/chats", "{\"user_id\": \"student-7\"}")
                .json()
                .get("id")
                .asString();
        talk(tenant, "visiting-teacher", studentsChat, "A word from a teacher with no chat of their own.");

        for (String user : List.of(learner, "visiting-teacher")) {
            Reply started = chats.delete("/api/v1/users/" + user);
            assertThat(started.status()).as(user + ": " + started).isEqualTo(202);
            String erasureId = started.json().get("erasure_id").asString();
            Eventually.until(
                    Eventually.PATIENCE,
                    () -> chats.get("/api/v1/erasures/" + erasureId)
                            .json()
                            .get("status")
                            .asString()
                            .equals("done"));
            assertThat(chats.delete("/api/v1/users/" + user).status()).isEqualTo(404);
        }
        assertThat(jdbc.sql("SELECT count(*) FROM lti_grade_targets WHERE tenant_id = :tenant")
                        .param("tenant", tenant.uuid())
                        .query(Integer.class)
                        .single())
                .isZero();
        assertThat(chats.get("/api/v1/chats/" + studentsChat + "/messages")
                        .json()
                        .toString())
                .doesNotContain("A word from a teacher");
    }

    /** A platform the tenant registers (its URLs are never asked: nothing launches from it), its id. */
    private static String registeredPlatform(Api chats, String issuer) {
        return chats.post("/api/v1/lti/platforms", """
                        {"issuer": "%s", "client_id": "client-%s",
                         "deployment_ids": ["1"], "auth_login_url": "http://127.0.0.1:9/auth",
                         "auth_token_url": "http://127.0.0.1:9/token", "jwks_url": "http://127.0.0.1:9/jwks"}""".formatted(issuer, UUID.randomUUID()))
                .json()
                .get("id")
                .asString();
    }

    /** What a launch and a review of the learner leave in the LTI tables, and a day of the per-user cap. */
    private void rowsTheLmsLeaves(UUID tenant, UUID platform, String user, UUID homework) {
        jdbc.sql("""
                        INSERT INTO lti_sessions (token_hash, tenant_id, platform_id, user_id, launch, created_at,
                                                  expires_at)
                        VALUES (:hash, :tenant, :platform, :user, '{}'::jsonb, now(), now() + interval '1 hour')""")
                .param("hash", UUID.randomUUID().toString().getBytes())
                .param("tenant", tenant)
                .param("platform", platform)
                .param("user", user)
                .update();
        jdbc.sql("""
                        INSERT INTO lti_grade_targets (platform_id, user_id, homework_id, line_item_url, tenant_id, sub,
                                                       launched_at)
                        VALUES (:platform, :user, :homework, 'http://127.0.0.1:9/lineitems/1', :tenant, 'sub', now())""")
                .param("platform", platform)
                .param("user", user)
                .param("homework", homework)
                .param("tenant", tenant)
                .update();
        jdbc.sql("""
                        INSERT INTO lti_scores (submission_id, state, line_item_url, platform_id, tenant_id, user_id,
                                                score, created_at, next_attempt_at, delivered_at)
                        VALUES (:submission, 'reviewed', 'http://127.0.0.1:9/lineitems/1', :platform, :tenant, :user,
                                '{}'::jsonb, now(), now(), now())""")
                .param("submission", UUID.randomUUID())
                .param("platform", platform)
                .param("tenant", tenant)
                .param("user", user)
                .update();
        jdbc.sql("""
                        INSERT INTO usage_user_days (tenant_id, user_id, day, tokens) VALUES (:tenant, :user,
                        current_date, 42) ON CONFLICT (tenant_id, user_id, day) DO NOTHING""").param("tenant", tenant).param("user", user).update();
        jdbc.sql("""
                        INSERT INTO lti_people (tenant_id, user_id, name, seen_at)
                        VALUES (:tenant, :user, 'Ada Lovelace', now())""").param("tenant", tenant).param("user", user).update();
    }

    /** What the test knows of the user, to find their rows by. */
    private static final class Facts {
        final UUID tenant;
        final String user;
        final String words;
        List<String> chatIds = List.of();
        String submissionId = "";

        Facts(UUID tenant, String user, String words) {
            this.tenant = tenant;
            this.user = user;
            this.words = words;
        }
    }

    /** The user's rows in each listed table, found as the entry says they are. */
    private Map<PersonalData, Integer> counts(Facts facts) {
        Map<PersonalData, Integer> counts = new LinkedHashMap<>();
        Arrays.stream(PersonalData.values())
                .filter(entry -> entry.treatment() != PersonalData.Treatment.KEPT)
                .forEach(entry -> counts.put(entry, count(entry, facts)));
        return counts;
    }

    private int count(PersonalData entry, Facts facts) {
        String sql = switch (entry) {
            case USERS,
                    CHATS,
                    AI_USAGE,
                    USAGE_USER_DAYS,
                    LTI_SESSIONS,
                    LTI_GRADE_TARGETS,
                    LTI_SCORES,
                    LTI_PEOPLE,
                    MODERATION_FLAGS ->
                "SELECT count(*) FROM " + entry.table() + " WHERE tenant_id = :tenant AND user_id = :user";
            case SUBMISSIONS -> "SELECT count(*) FROM submissions WHERE tenant_id = :tenant AND student_id = :user";
            case MESSAGES -> "SELECT count(*) FROM messages WHERE chat_id::text IN (:chats)";
            case MESSAGES_IN_OTHERS_CHATS -> """
                        SELECT count(*) FROM messages m JOIN chats c ON c.id = m.chat_id
                        WHERE c.tenant_id = :tenant AND c.user_id <> :user
                          AND (coalesce(m.metadata ->> 'user_id', m.metadata ->> 'in_reply_to_user_id') = :user
                               OR m.content LIKE '%' || :words || '%')""";
            case SUBMISSION_FILES, SUBMISSION_DECISIONS, REGRADE_REQUESTS ->
                "SELECT count(*) FROM " + entry.table() + " WHERE submission_id::text = :submission";
            case WEBHOOK_DELIVERIES -> """
                        SELECT count(*) FROM webhook_deliveries
                        WHERE tenant_id = :tenant AND (payload LIKE '%' || :words || '%' OR payload LIKE '%' || :user || '%')""";
            case IDEMPOTENCY_RECORDS ->
                "SELECT count(*) FROM idempotency_records WHERE tenant_id = :tenant"
                        + " AND response_body LIKE '%' || :user || '%'";
            case ERASURE_JOBS ->
                "SELECT count(*) FROM privacy_tasks WHERE position(convert_to(:user, 'UTF8') in task_data) > 0";
            case DECISIONS_BY_A_TEACHER, REGRADES_ANSWERED_BY_A_TEACHER, COURSES, HOMEWORKS ->
                throw new AssertionError(entry + " is kept: not the user's data");
        };
        return jdbc.sql(sql)
                .param("tenant", facts.tenant)
                .param("user", facts.user)
                .param("words", facts.words)
                .param("chats", facts.chatIds.isEmpty() ? List.of("none") : facts.chatIds)
                .param("submission", facts.submissionId)
                .query(Integer.class)
                .single();
    }

    private static void talk(TestTenant tenant, String userId, String chatId, String content) {
        try (ChatSocket socket = tenant.socket(userId, chatId)) {
            socket.awaitEvent("connection_established");
            socket.sendContent(content);
            socket.awaitReplyEnd();
        }
    }
}
