package com.chatreview.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.LoggerContext;
import com.chatreview.support.Api;
import com.chatreview.support.ChatSocket;
import com.chatreview.support.Eventually;
import com.chatreview.support.IntegrationTest;
import com.chatreview.support.SharedTestConfiguration;
import com.chatreview.support.TestService;
import com.chatreview.support.TestTenant;
import com.chatreview.tenancy.TenantId;
import com.chatreview.webhook.Receiver;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The series an operator watches (issue 30 (c)), scraped from {@code /actuator/prometheus} before and after real
 * traffic: each is there, and moved by what the traffic did. The app is shared with other tests, so counters are
 * compared by how much they grew.
 */
@IntegrationTest
class OperatorMetricsIntegrationTests {

    /**
     * A turbo filter runs on every level check of every logger, and Jetty checks dozens per request: the only one
     * Spring Boot installs, Micrometer's logback_events counter, is left out (docs/benchmarks.md, hot reads).
     */
    @Test
    void noTurboFilterStandsInFrontOfTheLoggers(TestService service) {
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        assertThat(service.port()).isPositive();
        assertThat(context.getTurboFilterList()).isEmpty();
    }

    @Test
    void everySeriesIsScrapedWithWhatTheTrafficDid(TestService service) throws Exception {
        TestTenant tenant = service.newTenant("metrics-traffic");
        Api operator = new Api(tenant.port()).with("X-Admin-Token", SharedTestConfiguration.ADMIN_TOKEN);
        Scrape before = Scrape.of(service);
        String chat = tenant.chats()
                .post("/api/v1/chats", "{\"user_id\": \"student-1\"}")
                .json()
                .get("id")
                .asString();
        try (Receiver receiver = new Receiver();
                ChatSocket api = tenant.socket("student-1", chat);
                ChatSocket page = ChatSocket.to(service.port())
                        .path("/ws/chat-ui")
                        .query("chat_id", chat)
                        .connect()) {
            tenant.chats()
                    .post(
                            "/api/v1/webhooks",
                            "{\"url\": \"" + receiver.url() + "\", \"event_types\": [\"chat.message.created\"]}");
            api.awaitEvent("connection_established");
            page.awaitEvent("connection_established");
            Scrape open = Scrape.of(service);
            assertThat(open.value("chat_connections_open", Map.of("kind", "api")))
                    .isGreaterThanOrEqualTo(1);
            assertThat(open.value("chat_connections_open", Map.of("kind", "chat_page")))
                    .isGreaterThanOrEqualTo(1);

            api.sendContent("What is a fraction?");
            api.awaitEvent("message_stream_ended");
            api.send("not json");
            assertThat(api.awaitEvent("error").get("error_code").asString()).isEqualTo("INVALID_MESSAGE");
            api.sendContent("Please fail " + SharedTestConfiguration.FAIL_MARKER);
            assertThat(api.awaitEvent("error").get("error_code").asString()).isEqualTo("AI_ERROR");
            operator.put("/admin/v1/tenants/" + tenant.id() + "/budget", "{\"monthly_tokens\": 0}");
            api.sendContent("And a decimal?");
            assertThat(api.awaitEvent("error").get("error_code").asString()).isEqualTo("BUDGET_EXHAUSTED");
            receiver.next(Duration.ofSeconds(20));
        }
        operator.put("/admin/v1/tenants/" + tenant.id() + "/budget", "{\"monthly_reviews\": 0}");
        String homeworkId = tenant.publishHomework("metrics-1");
        tenant.upload(homeworkId, "student-2", "main.py", "print(1)\n");

        Scrape after = Eventually.value(Duration.ofSeconds(30), () -> {
            Scrape now = Scrape.of(service);
            return now.value("reviews_waiting_for_budget", Map.of()) >= 1 ? now : null;
        });
        Map<String, String> chatKind = Map.of("kind", "chat");
        assertThat(after.grew(before, "chat_frames_received_total", Map.of())).isGreaterThanOrEqualTo(4);
        assertThat(after.grew(before, "chat_frames_refused_total", Map.of("reason", "invalid_message")))
                .isGreaterThanOrEqualTo(1);
        assertThat(after.grew(before, "chat_frames_refused_total", Map.of("reason", "budget_exhausted")))
                .isGreaterThanOrEqualTo(1);
        assertThat(after.grew(before, "chat_replies_started_total", chatKind)).isGreaterThanOrEqualTo(2);
        assertThat(after.grew(before, "chat_replies_finished_total", chatKind)).isGreaterThanOrEqualTo(1);
        assertThat(after.grew(before, "chat_replies_failed_total", Map.of("kind", "chat", "reason", "ai_error")))
                .isGreaterThanOrEqualTo(1);
        assertThat(after.grew(before, "ai_provider_errors_total", Map.of())).isGreaterThanOrEqualTo(1);
        assertThat(after.grew(before, "chat_reply_first_token_seconds_count", chatKind))
                .isGreaterThanOrEqualTo(1);
        assertThat(after.grew(before, "chat_reply_first_token_seconds_sum", chatKind))
                .as("a first token takes some time, and not minutes")
                .isGreaterThan(0)
                .isLessThan(60);
        assertThat(after.grew(before, "chat_reply_duration_seconds_count", chatKind))
                .isGreaterThanOrEqualTo(1);
        assertThat(after.value("chat_reply_duration_seconds_bucket", Map.of("kind", "chat", "le", "+Inf")))
                .as("a histogram, with buckets")
                .isGreaterThanOrEqualTo(1);
        assertThat(after.grew(before, "chat_reply_tokens_total", chatKind)).isGreaterThanOrEqualTo(1);
        assertThat(after.grew(before, "chat_reply_tokens_per_second_count", chatKind))
                .isGreaterThanOrEqualTo(1);
        assertThat(after.grew(before, "webhook_deliveries_total", Map.of("outcome", "delivered")))
                .isGreaterThanOrEqualTo(1);
        assertThat(after.has("reviews_queued")).isTrue();
        assertThat(after.has("reviews_running")).isTrue();
        assertThat(after.value("chat_frames_received_total", Map.of("tenant", tenant.id())))
                .as("a tenant the operator did not name has no series of its own")
                .isZero();
        assertThat(after.value("chat_frames_received_total", Map.of("tenant", TenantTags.OTHER)))
                .isGreaterThanOrEqualTo(4);
    }

    @Test
    void onlyTheTenantsTheOperatorNamesGetTheirOwnLabel() {
        UUID named = UUID.randomUUID();
        TenantTags tags = new TenantTags(new MetricsSettings(List.of(named)));
        assertThat(tags.of(TenantId.of(named))).isEqualTo(named.toString());
        assertThat(tags.of(TenantId.of(UUID.randomUUID()))).isEqualTo(TenantTags.OTHER);
    }

    /** One scrape of {@code /actuator/prometheus}: every sample by its name and labels. */
    record Scrape(Map<String, Map<Map<String, String>, Double>> samples) {

        private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][\\w:]*)(\\{(.*)})?\\s+(\\S+)$");
        private static final Pattern LABEL = Pattern.compile("(\\w+)=\"((?:[^\"\\\\]|\\\\.)*)\"");

        static Scrape of(TestService service) {
            Api.Reply reply = service.api().get("/actuator/prometheus");
            assertThat(reply.status()).isEqualTo(200);
            Map<String, Map<Map<String, String>, Double>> samples = new HashMap<>();
            for (String line : reply.text().split("\n")) {
                Matcher sample = SAMPLE.matcher(line);
                if (line.startsWith("#") || !sample.matches()) {
                    continue;
                }
                Map<String, String> labels = new HashMap<>();
                if (sample.group(3) != null) {
                    Matcher label = LABEL.matcher(sample.group(3));
                    while (label.find()) {
                        labels.put(label.group(1), label.group(2));
                    }
                }
                samples.computeIfAbsent(sample.group(1), name -> new HashMap<>())
                        .put(labels, Double.parseDouble(sample.group(4)));
            }
            return new Scrape(samples);
        }

        boolean has(String name) {
            return samples.containsKey(name);
        }

        /** The sum of the samples of the name whose labels include these. */
        double value(String name, Map<String, String> labels) {
            return samples.getOrDefault(name, Map.of()).entrySet().stream()
                    .filter(sample -> sample.getKey().entrySet().containsAll(labels.entrySet()))
                    .mapToDouble(Map.Entry::getValue)
                    .sum();
        }

        double grew(Scrape before, String name, Map<String, String> labels) {
            assertThat(has(name)).as(name + " is scraped").isTrue();
            return value(name, labels) - before.value(name, labels);
        }
    }
}
