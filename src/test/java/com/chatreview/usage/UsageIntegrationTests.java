package com.chatreview.usage;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.support.Api;
import com.chatreview.support.ChatSocket;
import com.chatreview.support.IntegrationTest;
import com.chatreview.support.TestService;
import com.chatreview.support.TestTenant;
import com.chatreview.support.UtcDays;
import java.time.Duration;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * {@code GET /api/v1/usage} (docs/api.md, Usage and budgets): what a tenant's replies and reviews cost, by kind, user, chat and day,
 * equal to the sums of the stored messages' {@code metadata.usage}, and nobody else's.
 */
@IntegrationTest
class UsageIntegrationTests {

    @Test
    void theUsageIsTheSumOfTheStoredRepliesByKindUserChatAndDay(TestService service) throws Exception {
        TestTenant tenant = service.newTenant("usage");
        UtcDays started = UtcDays.fromNow();
        Api api = tenant.chats();
        String chat = api.post("/api/v1/chats", "{\"user_id\": \"student-1\"}")
                .json()
                .get("id")
                .asString();
        try (ChatSocket socket = tenant.socket("student-1", chat)) {
            socket.awaitEvent("connection_established");
            for (int i = 0; i < 3; i++) {
                socket.sendContent("Question " + i + ": what is a fraction?");
                socket.awaitEvent("message_received");
                socket.awaitReplyEnd();
            }
        }
        String homeworkId = tenant.publishHomework("usage-1");
        JsonNode submission = tenant.upload(homeworkId, "student-2", "main.py", "print(1)\n");
        String reviewChat = submission.get("chatId").asString();
        String path = "/v1/homeworks/" + homeworkId + "/submissions/"
                + submission.get("id").asString();
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!tenant.homework()
                .get(path)
                .json()
                .get("review")
                .get("state")
                .asString()
                .equals("done")) {
            assertThat(System.nanoTime()).as("the review is done in time").isLessThan(deadline);
            Thread.sleep(200);
        }

        Map<String, Long> stored = new HashMap<>();
        for (String chatId : List.of(chat, reviewChat)) {
            for (JsonNode message : api.get("/api/v1/chats/" + chatId + "/messages?limit=100")
                    .json()
                    .get("messages")) {
                if (message.get("sender_role").asString().equals("assistant")) {
                    JsonNode usage = message.get("metadata").get("usage");
                    stored.merge("prompt_tokens", usage.get("prompt_tokens").asLong(), Long::sum);
                    stored.merge(
                            "completion_tokens", usage.get("completion_tokens").asLong(), Long::sum);
                    stored.merge("total_tokens", usage.get("total_tokens").asLong(), Long::sum);
                }
            }
        }

        JsonNode byKind = api.get("/api/v1/usage?group_by=kind").json();
        // the month of the answer: of a day from the test's start to now (a run may cross a month's end)
        List<LocalDate> days = started.untilNow();
        LocalDate today = days.getLast();
        assertThat(byKind.get("from").asString())
                .isIn(days.stream().map(day -> day.withDayOfMonth(1).toString()).toList());
        assertThat(byKind.get("to").asString())
                .isIn(days.stream()
                        .map(day -> day.withDayOfMonth(day.lengthOfMonth()).toString())
                        .toList());
        JsonNode totals = byKind.get("totals");
        assertThat(totals.get("replies").asLong()).isEqualTo(3);
        assertThat(totals.get("reviews").asLong()).isEqualTo(1);
        for (String count : List.of("prompt_tokens", "completion_tokens", "total_tokens")) {
            assertThat(totals.get(count).asLong())
                    .as(count)
                    .isEqualTo(stored.get(count))
                    .isPositive();
        }
        assertThat(byKind.get("usage")).hasSize(2);
        assertThat(byKind.get("usage").get(0).get("kind").asString()).isEqualTo("chat");
        assertThat(byKind.get("usage").get(0).get("replies").asLong()).isEqualTo(3);
        assertThat(byKind.get("usage").get(1).get("kind").asString()).isEqualTo("review");
        assertThat(byKind.get("usage").get(1).get("reviews").asLong()).isEqualTo(1);

        JsonNode byUser = api.get("/api/v1/usage?group_by=user").json().get("usage");
        assertThat(byUser).extracting(row -> row.get("user_id").asString()).containsExactly("student-1", "student-2");
        assertThat(byUser.get(0).has("chat_id")).isFalse();
        JsonNode byChat = api.get("/api/v1/usage?group_by=chat").json().get("usage");
        assertThat(byChat).extracting(row -> row.get("chat_id").asString()).containsExactlyInAnyOrder(chat, reviewChat);
        JsonNode byDay = api.get("/api/v1/usage").json().get("usage");
        assertThat(byDay).singleElement().satisfies(row -> {
            assertThat(row.get("period_start").asString())
                    .isIn(days.stream().map(LocalDate::toString).toList());
            assertThat(row.get("total_tokens").asLong()).isEqualTo(stored.get("total_tokens"));
        });

        JsonNode someoneElses = service.newTenant("usage-other")
                .chats()
                .get("/api/v1/usage?group_by=kind")
                .json();
        assertThat(someoneElses.get("usage")).isEmpty();
        assertThat(someoneElses.get("totals").get("total_tokens").asLong()).isZero();
        JsonNode lastYear = api.get("/api/v1/usage?from=" + today.minusYears(1).withDayOfMonth(1) + "&to="
                        + today.minusYears(1).withDayOfMonth(28))
                .json();
        assertThat(lastYear.get("usage")).isEmpty();
    }

    @Test
    void aRangeOrGroupingItCannotAnswerIsRefusedNamingTheParameter(TestTenant tenant) {
        Api api = tenant.chats();
        for (String[] bad : new String[][] {
            {"from=2026-13-01", "from"},
            {"to=yesterday", "to"},
            {"from=2026-05-02&to=2026-05-01", "to"},
            {"from=2025-01-01&to=2026-01-02", "to"},
            {"group_by=week", "group_by"}
        }) {
            Api.Reply refused = api.get("/api/v1/usage?" + bad[0]);
            assertThat(refused.status()).as(bad[0]).isEqualTo(400);
            assertThat(refused.json().get("code").asString()).isEqualTo("VALIDATION_ERROR");
            assertThat(refused.json().get("errors").get(0).get("field").asString())
                    .as(bad[0])
                    .isEqualTo(bad[1]);
        }
        assertThat(api.get("/api/v1/usage?from=2025-01-01&to=2026-01-01").status())
                .as("366 days")
                .isEqualTo(200);
        assertThat(new Api(tenant.port()).get("/api/v1/usage").status()).isEqualTo(401);
    }
}
