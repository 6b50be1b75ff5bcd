package com.chatreview.usage;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.support.Api;
import com.chatreview.support.ChatSocket;
import com.chatreview.support.Eventually;
import com.chatreview.support.IntegrationTest;
import com.chatreview.support.SharedTestConfiguration;
import com.chatreview.support.TestClock;
import com.chatreview.support.TestService;
import com.chatreview.support.TestTenant;
import com.chatreview.support.UtcDays;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/**
 * AI budgets (docs/api.md, Usage and budgets): the operator's monthly budgets and the tenant's per-user daily cap, shown with what
 * was spent; a spent one refuses a new frame without storing it, and makes a review wait until it is raised.
 */
@IntegrationTest
class BudgetIntegrationTests {

    @Autowired
    TestClock clock;

    private static final Duration REVIEW_TIME = Duration.ofSeconds(60);

    @Test
    void theOperatorsBudgetsAndTheTenantsCapAreSetAndShownWithWhatWasSpent(TestService service) {
        TestTenant tenant = service.newTenant("budget-shown");
        Api operator = operator(tenant);
        UtcDays days = UtcDays.fromNow();
        JsonNode unlimited = tenant.chats().get("/api/v1/usage/budget").json();
        assertThat(unlimited.get("monthly_tokens").isNull()).isTrue();
        assertThat(unlimited.get("monthly_reviews").isNull()).isTrue();
        assertThat(unlimited.get("per_user_daily_tokens").isNull()).isTrue();
        assertThat(unlimited.get("used_tokens").asLong()).isZero();
        assertThat(unlimited.get("used_reviews").asLong()).isZero();
        assertThat(Instant.parse(unlimited.get("resets_at").asString())).isIn(days.nextMonthStarts());

        Api.Reply set = operator.put(
                "/admin/v1/tenants/" + tenant.id() + "/budget", "{\"monthly_tokens\": 5000, \"monthly_reviews\": 40}");
        assertThat(set.status()).as(set.toString()).isEqualTo(200);
        assertThat(set.json().get("monthly_tokens").asLong()).isEqualTo(5000);
        Api.Reply capped = tenant.chats().put("/api/v1/usage/limits", "{\"per_user_daily_tokens\": 300}");
        assertThat(capped.status()).as(capped.toString()).isEqualTo(200);
        assertThat(capped.json().get("per_user_daily_tokens").asLong()).isEqualTo(300);

        JsonNode budget = tenant.chats().get("/api/v1/usage/budget").json();
        assertThat(budget.get("monthly_tokens").asLong()).isEqualTo(5000);
        assertThat(budget.get("monthly_reviews").asLong()).isEqualTo(40);
        assertThat(budget.get("per_user_daily_tokens").asLong())
                .as("the tenant's cap stays when the operator sets the budgets, and the other way round")
                .isEqualTo(300);
        assertThat(operator.get("/admin/v1/tenants/" + tenant.id() + "/budget")
                        .json()
                        .get("per_user_daily_tokens")
                        .asLong())
                .isEqualTo(300);
        assertThat(service.newTenant("budget-other")
                        .chats()
                        .get("/api/v1/usage/budget")
                        .json()
                        .get("monthly_tokens")
                        .isNull())
                .as("another tenant's budget")
                .isTrue();

        Api.Reply negative = operator.put(
                "/admin/v1/tenants/" + tenant.id() + "/budget", "{\"monthly_tokens\": -1, \"monthly_reviews\": null}");
        assertThat(negative.status()).isEqualTo(400);
        assertThat(negative.json().get("errors").get(0).get("field").asString()).isEqualTo("monthly_tokens");
        assertThat(negative.json().get("fix").asString()).isNotBlank();
        Api.Reply notANumber = tenant.chats().put("/api/v1/usage/limits", "{\"per_user_daily_tokens\": \"many\"}");
        assertThat(notANumber.status()).isEqualTo(400);
        assertThat(operator.put("/admin/v1/tenants/" + UUID.randomUUID() + "/budget", "{\"monthly_tokens\": 1}")
                        .status())
                .isEqualTo(404);
        assertThat(tenant.chats()
                        .put("/admin/v1/tenants/" + tenant.id() + "/budget", "{\"monthly_tokens\": 1}")
                        .status())
                .as("a tenant's key does not set its own budget")
                .isIn(401, 403);
    }

    @Test
    void aSpentMonthlyBudgetRefusesTheNextFrameStoringNothingUntilItIsRaised(TestService service) throws Exception {
        TestTenant tenant = service.newTenant("budget-spent");
        UtcDays days = UtcDays.fromNow();
        operator(tenant).put("/admin/v1/tenants/" + tenant.id() + "/budget", "{\"monthly_tokens\": 1}");
        String chat = chat(tenant, "student-1");
        try (ChatSocket socket = tenant.socket("student-1", chat)) {
            socket.awaitEvent("connection_established");
            socket.sendContent("What is a fraction?");
            socket.awaitEvent("message_received");
            socket.awaitReplyEnd();

            socket.sendContent("And a decimal?");
            JsonNode refused = socket.awaitEvent("error");
            assertThat(refused.get("error_code").asString()).isEqualTo("BUDGET_EXHAUSTED");
            JsonNode details = refused.get("details");
            assertThat(details.get("fix").asString()).contains("monthly_tokens", "resets_at");
            assertThat(Instant.parse(details.get("resets_at").asString())).isIn(days.nextMonthStarts());
            assertThat(details.get("budget").asString()).isEqualTo("monthly_tokens");
            assertThat(messages(tenant, chat))
                    .as("the refused frame is not stored")
                    .isEqualTo(2);
            Instant resetsAt = Instant.parse(details.get("resets_at").asString());
            JsonNode budget = tenant.chats().get("/api/v1/usage/budget").json();
            assertThat(budget.get("used_tokens").asLong())
                    .isEqualTo(tenant.chats()
                            .get("/api/v1/usage")
                            .json()
                            .get("totals")
                            .get("total_tokens")
                            .asLong())
                    .isGreaterThanOrEqualTo(1);

            try (TestClock.Move nextMonth = clock.moveTo(resetsAt.plusSeconds(1))) {
                socket.sendContent("And in the new month?");
                assertThat(socket.awaitEvent("message_received").get("content").asString())
                        .as("the month's budget starts again at resets_at")
                        .isEqualTo("And in the new month?");
                socket.awaitReplyEnd();
                assertThat(Instant.parse(tenant.chats()
                                .get("/api/v1/usage/budget")
                                .json()
                                .get("resets_at")
                                .asString()))
                        .as("and resets at the start of the month after")
                        .isEqualTo(
                                resetsAt.atOffset(ZoneOffset.UTC).plusMonths(1).toInstant());
            }
            socket.sendContent("And back in this month?");
            assertThat(socket.awaitEvent("error").get("error_code").asString())
                    .as("this month's budget is still spent")
                    .isEqualTo("BUDGET_EXHAUSTED");

            operator(tenant).put("/admin/v1/tenants/" + tenant.id() + "/budget", "{\"monthly_tokens\": null}");
            socket.sendContent("And a decimal, now?");
            socket.awaitEvent("message_received");
            socket.awaitReplyEnd();
            assertThat(messages(tenant, chat)).isEqualTo(6);
        }
    }

    @Test
    void aReplyStreamingWhenTheBudgetRunsOutFinishesAndIsStored(TestService service) throws Exception {
        TestTenant tenant = service.newTenant("budget-streaming");
        String chat = chat(tenant, "student-1");
        try (ChatSocket socket = tenant.socket("student-1", chat)) {
            socket.awaitEvent("connection_established");
            socket.sendContent("Tell me slowly " + SharedTestConfiguration.SLOW_MARKER);
            socket.awaitEvent("message_stream_token");
            operator(tenant).put("/admin/v1/tenants/" + tenant.id() + "/budget", "{\"monthly_tokens\": 0}");
            List<JsonNode> rest = socket.awaitReplyEnd();
            assertThat(rest.getLast().get("event_type").asString())
                    .as("the reply under way when the budget ran out")
                    .isEqualTo("message_stream_ended");
            assertThat(messages(tenant, chat)).isEqualTo(2);
            assertThat(tenant.chats()
                            .get("/api/v1/usage/budget")
                            .json()
                            .get("used_tokens")
                            .asLong())
                    .as("and it is counted")
                    .isPositive();

            socket.sendContent("And now?");
            assertThat(socket.awaitEvent("error").get("error_code").asString()).isEqualTo("BUDGET_EXHAUSTED");
        }
    }

    @Test
    void aUsersDailyCapRefusesThatUserAloneUntilTomorrow(TestService service) throws Exception {
        TestTenant tenant = service.newTenant("budget-user");
        UtcDays days = UtcDays.fromNow();
        tenant.chats().put("/api/v1/usage/limits", "{\"per_user_daily_tokens\": 1}");
        String first = chat(tenant, "student-1");
        String second = chat(tenant, "student-2");
        try (ChatSocket socket = tenant.socket("student-1", first)) {
            socket.awaitEvent("connection_established");
            socket.sendContent("What is a fraction?");
            socket.awaitReplyEnd();
            socket.sendContent("And a decimal?");
            JsonNode refused = socket.awaitEvent("error");
            assertThat(refused.get("error_code").asString()).isEqualTo("BUDGET_EXHAUSTED");
            assertThat(refused.get("details").get("budget").asString()).isEqualTo("per_user_daily_tokens");
            assertThat(refused.get("details").get("fix").asString()).contains("per_user_daily_tokens");
            Instant resetsAt =
                    Instant.parse(refused.get("details").get("resets_at").asString());
            assertThat(resetsAt).isIn(days.nextDayStarts());

            try (TestClock.Move tomorrow = clock.moveTo(resetsAt.plusSeconds(1))) {
                socket.sendContent("And a decimal, today?");
                assertThat(socket.awaitEvent("message_received").get("content").asString())
                        .as("the user's cap starts again at resets_at")
                        .isEqualTo("And a decimal, today?");
                socket.awaitReplyEnd();
            }
        }
        try (ChatSocket socket = tenant.socket("student-2", second)) {
            socket.awaitEvent("connection_established");
            socket.sendContent("What is a fraction?");
            socket.awaitEvent("message_received");
            assertThat(socket.awaitReplyEnd())
                    .as("another user of the tenant is answered")
                    .isNotEmpty();
        }
    }

    @Test
    void anUploadIsStoredWhenTheBudgetIsSpentAndItsReviewRunsByItselfOnceRaised(TestService service) throws Exception {
        TestTenant tenant = service.newTenant("budget-review");
        operator(tenant).put("/admin/v1/tenants/" + tenant.id() + "/budget", "{\"monthly_reviews\": 0}");
        String homeworkId = tenant.publishHomework("budget-1");
        JsonNode submission = tenant.upload(homeworkId, "student-1", "main.py", "print(1)\n");
        String path = "/v1/homeworks/" + homeworkId + "/submissions/"
                + submission.get("id").asString();
        Eventually.passes(
                Duration.ofSeconds(30),
                () -> assertThat(reviewState(tenant, path)).isEqualTo("waiting_for_budget"));
        assertThat(messages(tenant, submission.get("chatId").asString()))
                .as("nothing of the review is in its chat")
                .isZero();
        assertThat(tenant.homework().get(path).json().get("status").asString()).isEqualTo("submitted");
        Api.Reply retried = operator(tenant)
                .post(
                        "/admin/v1/tenants/" + tenant.id() + "/submissions/"
                                + submission.get("id").asString() + "/review",
                        "");
        assertThat(retried.status()).as("a waiting review is no failed one").isEqualTo(409);
        assertThat(retried.json().get("fix").asString()).contains("waits for an AI budget", "/budget");

        operator(tenant).put("/admin/v1/tenants/" + tenant.id() + "/budget", "{\"monthly_reviews\": 1}");
        Eventually.passes(
                REVIEW_TIME, () -> assertThat(reviewState(tenant, path)).isEqualTo("done"));
        JsonNode reviewed = tenant.homework().get(path).json();
        assertThat(reviewed.get("status").asString()).isEqualTo("reviewed");
        assertThat(reviewed.get("review").get("failedAttempts").asInt())
                .as("waiting is no failed attempt")
                .isZero();
        JsonNode budget = tenant.chats().get("/api/v1/usage/budget").json();
        assertThat(budget.get("used_reviews").asLong()).isEqualTo(1);

        JsonNode next = tenant.upload(homeworkId, "student-2", "main.py", "print(2)\n");
        String nextPath =
                "/v1/homeworks/" + homeworkId + "/submissions/" + next.get("id").asString();
        Eventually.passes(
                Duration.ofSeconds(30),
                () -> assertThat(reviewState(tenant, nextPath))
                        .as("the budget of one review is spent again")
                        .isEqualTo("waiting_for_budget"));
    }

    static Api operator(TestTenant tenant) {
        return new Api(tenant.port()).with("X-Admin-Token", SharedTestConfiguration.ADMIN_TOKEN);
    }

    private static String chat(TestTenant tenant, String userId) {
        return tenant.chats()
                .post("/api/v1/chats", "{\"user_id\": \"" + userId + "\"}")
                .json()
                .get("id")
                .asString();
    }

    private static int messages(TestTenant tenant, String chatId) {
        return tenant.chats()
                .get("/api/v1/chats/" + chatId + "/messages?limit=100")
                .json()
                .get("messages")
                .size();
    }

    private static String reviewState(TestTenant tenant, String path) {
        return tenant.homework().get(path).json().get("review").get("state").asString();
    }
}
