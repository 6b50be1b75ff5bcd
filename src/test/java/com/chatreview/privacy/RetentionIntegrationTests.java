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
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * {@code GET/PUT /api/v1/settings/retention}, and the daily retention run with the clock moved forward: a chat past
 * {@code messages_days} goes, a submission (with its review chat) past {@code submissions_days} goes, and what is
 * younger, or a tenant without a setting, keeps everything.
 */
@SingleNodeToo
@IntegrationTest
class RetentionIntegrationTests {

    @Autowired
    DataRetention retention;

    @Autowired
    Clock clock;

    @Autowired
    JdbcClient jdbc;

    @Test
    void theSettingIsReadAndWrittenAndCheckedLikeAnyOther(TestService service) {
        Api api = service.newTenant("retention-setting").chats();

        Reply initial = api.get("/api/v1/settings/retention");
        assertThat(initial.status()).isEqualTo(200);
        assertThat(initial.json().get("messages_days").isNull()).isTrue();
        assertThat(initial.json().get("submissions_days").isNull()).isTrue();

        Reply set = api.put("/api/v1/settings/retention", "{\"messages_days\": 30, \"submissions_days\": 365}");
        assertThat(set.status()).as(set.toString()).isEqualTo(200);
        assertThat(set.json().get("messages_days").asInt()).isEqualTo(30);
        assertThat(api.get("/api/v1/settings/retention")
                        .json()
                        .get("submissions_days")
                        .asInt())
                .isEqualTo(365);

        for (String wrong : new String[] {"{\"messages_days\": 0}", "{\"submissions_days\": 36501}"}) {
            Reply refused = api.put("/api/v1/settings/retention", wrong);
            assertThat(refused.status()).as(wrong).isEqualTo(400);
            assertThat(refused.json().get("code").asString()).isEqualTo("VALIDATION_ERROR");
            assertThat(refused.json().get("fix").asString()).isNotBlank();
        }
        assertThat(api.put("/api/v1/settings/retention", "{\"messages_days\": \"a month\"}")
                        .status())
                .isEqualTo(400);
        assertThat(api.get("/api/v1/settings/retention")
                        .json()
                        .get("messages_days")
                        .asInt())
                .as("unchanged by the refused ones")
                .isEqualTo(30);
    }

    @Test
    void theDailyRunErasesWhatIsOlderThanTheSettingAndNothingElse(TestService service) throws Exception {
        TestTenant tenant = service.newTenant("retention-run");
        TestTenant keepsAll = service.newTenant("retention-none");
        Api chats = tenant.chats();
        assertThat(chats.put("/api/v1/settings/retention", "{\"messages_days\": 30, \"submissions_days\": 90}")
                        .status())
                .isEqualTo(200);
        String chat = newChat(tenant, "student-1");
        try (ChatSocket socket = tenant.socket("student-1", chat)) {
            socket.awaitEvent("connection_established");
            socket.sendContent("Hello");
            socket.awaitReplyEnd();
        }
        String homeworkId = tenant.publishHomework("retention-1");
        String submissionId = tenant.upload(homeworkId, "student-1", "answer.txt", "An answer.\n")
                .get("id")
                .asString();
        String submissionPath = "/v1/homeworks/" + homeworkId + "/submissions/" + submissionId;
        Eventually.until(
                Duration.ofSeconds(30),
                () -> !tenant.homework()
                        .get(submissionPath)
                        .json()
                        .get("grade")
                        .asString()
                        .isEmpty());
        String reviewChat =
                tenant.homework().get(submissionPath).json().get("chatId").asString();
        String chatKept = newChat(keepsAll, "student-1");
        Instant now = clock.instant();

        retention.applyAll(now.plus(Duration.ofDays(29)));
        assertThat(chats.get("/api/v1/chats/" + chat).status()).as("29 days on").isEqualTo(200);

        retention.applyAll(now.plus(Duration.ofDays(31)));
        assertThat(chats.get("/api/v1/chats/" + chat).status()).as("31 days on").isEqualTo(404);
        assertThat(chats.get("/api/v1/chats/" + reviewChat).status())
                .as("a review chat goes with its submission")
                .isEqualTo(200);
        assertThat(tenant.homework().get(submissionPath).status()).isEqualTo(200);

        retention.applyAll(now.plus(Duration.ofDays(91)));
        assertThat(tenant.homework().get(submissionPath).status())
                .as("91 days on")
                .isEqualTo(404);
        assertThat(chats.get("/api/v1/chats/" + reviewChat).status()).isEqualTo(404);
        assertThat(keepsAll.chats().get("/api/v1/chats/" + chatKept).status())
                .as("a tenant without a setting keeps everything")
                .isEqualTo(200);
    }

    /** One row, whatever the number of nodes: db-scheduler runs it on the node that picks it, once a day. */
    @Test
    void theDailyRunIsOneJobDueAtThreeUtc() {
        List<Instant> due = jdbc.sql("SELECT execution_time FROM privacy_tasks WHERE task_name = 'apply-retention'")
                .query((row, n) ->
                        row.getObject(1, java.time.OffsetDateTime.class).toInstant())
                .list();

        assertThat(due).hasSize(1);
        assertThat(due.getFirst().atOffset(ZoneOffset.UTC).toLocalTime()).isEqualTo(LocalTime.of(3, 0));
        assertThat(due.getFirst()).isBetween(clock.instant(), clock.instant().plus(Duration.ofDays(1)));
    }

    private static String newChat(TestTenant tenant, String userId) {
        Reply created = tenant.chats().post("/api/v1/chats", "{\"user_id\": \"" + userId + "\"}");
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        return created.json().get("id").asString();
    }
}
