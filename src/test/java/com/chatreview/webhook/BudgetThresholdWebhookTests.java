package com.chatreview.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.support.Api;
import com.chatreview.support.ChatSocket;
import com.chatreview.support.IntegrationTest;
import com.chatreview.support.SharedTestConfiguration;
import com.chatreview.support.TestService;
import com.chatreview.support.TestTenant;
import com.chatreview.support.UtcDays;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * {@code usage.budget_threshold} (docs/api.md, Usage and budgets): told when a tenant's use reaches 80 % and 100 % of a monthly
 * budget, once each per month, by the reply that reaches it.
 */
@IntegrationTest
class BudgetThresholdWebhookTests {

    private static final Duration WAIT = Duration.ofSeconds(20);

    @Test
    void eachThresholdIsToldOnceAMonthWithTheBudgetAndWhatWasSpent(TestService service) throws Exception {
        TestTenant tenant = service.newTenant("thresholds");
        UtcDays days = UtcDays.fromNow();
        Api operator = new Api(tenant.port()).with("X-Admin-Token", SharedTestConfiguration.ADMIN_TOKEN);
        try (Receiver receiver = new Receiver()) {
            Api.Reply registered = tenant.chats()
                    .post(
                            "/api/v1/webhooks",
                            "{\"url\": \"" + receiver.url() + "\", \"event_types\": [\"usage.budget_threshold\"]}");
            assertThat(registered.status()).as(registered.toString()).isEqualTo(201);
            String chat = tenant.chats()
                    .post("/api/v1/chats", "{\"user_id\": \"student-1\"}")
                    .json()
                    .get("id")
                    .asString();
            try (ChatSocket socket = tenant.socket("student-1", chat)) {
                socket.awaitEvent("connection_established");
                socket.sendContent("What is a fraction?");
                socket.awaitReplyEnd();
                long spent = tenant.chats()
                        .get("/api/v1/usage/budget")
                        .json()
                        .get("used_tokens")
                        .asLong();
                // a few more replies cross 80 %, then 100 %
                long budget = spent * 2 + spent / 2;
                operator.put(
                        "/admin/v1/tenants/" + tenant.id() + "/budget",
                        "{\"monthly_tokens\": " + budget + ", \"monthly_reviews\": null}");
                assertThat(receiver.poll(Duration.ofMillis(500)))
                        .as("below 80 %: nothing")
                        .isNull();

                int replies = 0;
                while (true) {
                    socket.sendContent("What is a fraction?");
                    List<JsonNode> events = socket.awaitReplyEnd();
                    JsonNode next = events.getLast();
                    if (next.get("event_type").asString().equals("error")) {
                        assertThat(next.get("error_code").asString()).isEqualTo("BUDGET_EXHAUSTED");
                        break;
                    }
                    assertThat(++replies)
                            .as("replies until the budget is spent")
                            .isLessThan(10);
                }
                JsonNode eighty = data(receiver);
                assertThat(eighty.get("budget").asString()).isEqualTo("monthly_tokens");
                assertThat(eighty.get("percent").asInt()).isEqualTo(80);
                assertThat(eighty.get("limit").asLong()).isEqualTo(budget);
                assertThat(eighty.get("used").asLong()).isGreaterThanOrEqualTo(budget * 8 / 10);
                assertThat(eighty.get("month").asString()).isIn(days.months());
                assertThat(Instant.parse(eighty.get("resets_at").asString())).isIn(days.nextMonthStarts());
                JsonNode hundred = data(receiver);
                assertThat(hundred.get("percent").asInt()).isEqualTo(100);
                assertThat(hundred.get("used").asLong()).isGreaterThanOrEqualTo(budget);

                operator.put(
                        "/admin/v1/tenants/" + tenant.id() + "/budget",
                        "{\"monthly_tokens\": " + (budget * 10) + ", \"monthly_reviews\": null}");
                socket.sendContent("What is a fraction?");
                socket.awaitEvent("message_stream_ended");
                assertThat(receiver.poll(Duration.ofSeconds(1)))
                        .as("each threshold once a month, however the budget changes")
                        .isNull();
            }
        }
    }

    private static JsonNode data(Receiver receiver) throws InterruptedException {
        Receiver.Received received = receiver.next(WAIT);
        JsonNode body = Api.JSON.readTree(received.body());
        assertThat(body.get("type").asString()).isEqualTo("usage.budget_threshold");
        return body.get("data");
    }
}
