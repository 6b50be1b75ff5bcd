package com.chatreview.realtime;

import com.chatreview.assistant.AssistantFailure;
import com.chatreview.metrics.TenantTags;
import com.chatreview.tenancy.TenantId;
import com.chatreview.usage.UsageKind;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.stereotype.Component;

/**
 * The real-time series an operator watches (docs/deployment.md, "Metrics an operator watches"): open connections by
 * kind, frames received and refused by reason, replies started, finished and failed, first-token latency, reply
 * duration and generation speed, AI provider errors by kind. Per tenant only where {@link TenantTags} names it.
 */
@Component
class RealtimeMetrics {

    /** How a connection got in: the tenant's backend (API key) or the chat page (link or embed token). */
    enum ConnectionKind {
        API,
        CHAT_PAGE;

        String value() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }

        static ConnectionKind of(Connection connection) {
            return connection.apiKeyId == null ? CHAT_PAGE : API;
        }
    }

    private final MeterRegistry meters;
    private final TenantTags tenants;
    private final Map<ConnectionKind, AtomicInteger> open = new EnumMap<>(ConnectionKind.class);
    private final Map<UsageKind, Timer> firstToken = new EnumMap<>(UsageKind.class);
    private final Map<UsageKind, Timer> duration = new EnumMap<>(UsageKind.class);
    private final Map<UsageKind, DistributionSummary> speed = new EnumMap<>(UsageKind.class);

    RealtimeMetrics(MeterRegistry meters, TenantTags tenants) {
        this.meters = meters;
        this.tenants = tenants;
        for (ConnectionKind kind : ConnectionKind.values()) {
            AtomicInteger count = new AtomicInteger();
            open.put(kind, count);
            Gauge.builder("chat.connections.open", count, AtomicInteger::get)
                    .description("WebSocket connections open on this node")
                    .tag("kind", kind.value())
                    .register(meters);
        }
        for (UsageKind kind : UsageKind.values()) {
            firstToken.put(
                    kind,
                    Timer.builder("chat.reply.first_token")
                            .description("From a reply's start to its first token")
                            .tag("kind", kind.value())
                            .publishPercentileHistogram()
                            .maximumExpectedValue(Duration.ofMinutes(2))
                            .register(meters));
            duration.put(
                    kind,
                    Timer.builder("chat.reply.duration")
                            .description("From a reply's start to its being stored")
                            .tag("kind", kind.value())
                            .publishPercentileHistogram()
                            .maximumExpectedValue(Duration.ofMinutes(10))
                            .register(meters));
            speed.put(
                    kind,
                    DistributionSummary.builder("chat.reply.tokens_per_second")
                            .description("Each stored reply's completion tokens over its duration")
                            .tag("kind", kind.value())
                            .publishPercentileHistogram()
                            .minimumExpectedValue(0.1)
                            .maximumExpectedValue(10_000.0)
                            .register(meters));
        }
    }

    void connectionOpened(Connection connection) {
        open.get(ConnectionKind.of(connection)).incrementAndGet();
    }

    void connectionClosed(Connection connection) {
        open.get(ConnectionKind.of(connection)).decrementAndGet();
    }

    void frameReceived(TenantId tenant) {
        Counter.builder("chat.frames.received")
                .description("Client frames received")
                .tag("tenant", tenants.of(tenant))
                .register(meters)
                .increment();
    }

    /** A client frame was answered with an error and not stored: why, as the error's code (or queue_full). */
    void frameRefused(TenantId tenant, String reason) {
        Counter.builder("chat.frames.refused")
                .description("Client frames refused (not stored), by reason")
                .tag("tenant", tenants.of(tenant))
                .tag("reason", reason)
                .register(meters)
                .increment();
    }

    void frameRefused(TenantId tenant, ErrorCode code) {
        frameRefused(tenant, code.name().toLowerCase(java.util.Locale.ROOT));
    }

    /** A reply starts streaming; the returned handle records how it goes. */
    Reply replyStarted(TenantId tenant, UsageKind kind) {
        String tenantTag = tenants.of(tenant);
        Counter.builder("chat.replies.started")
                .description("Replies (and reviews) that started streaming")
                .tag("kind", kind.value())
                .tag("tenant", tenantTag)
                .register(meters)
                .increment();
        return new Reply(kind, tenantTag, System.nanoTime());
    }

    void providerFailed(AssistantFailure failure) {
        Counter.builder("ai.provider.errors")
                .description("Replies the AI provider failed, by kind")
                .tag("kind", failure.kind().value())
                .register(meters)
                .increment();
    }

    /** One reply's metrics, from its start. */
    final class Reply {

        private final UsageKind kind;
        private final String tenant;
        private final long started;
        private volatile boolean tokenSeen;

        private Reply(UsageKind kind, String tenant, long started) {
            this.kind = kind;
            this.tenant = tenant;
            this.started = started;
        }

        void token() {
            if (!tokenSeen) {
                tokenSeen = true;
                firstToken.get(kind).record(System.nanoTime() - started, java.util.concurrent.TimeUnit.NANOSECONDS);
            }
        }

        void finished(int completionTokens) {
            long nanos = System.nanoTime() - started;
            duration.get(kind).record(nanos, java.util.concurrent.TimeUnit.NANOSECONDS);
            Counter.builder("chat.replies.finished")
                    .description("Replies (and reviews) streamed and stored")
                    .tag("kind", kind.value())
                    .tag("tenant", tenant)
                    .register(meters)
                    .increment();
            Counter.builder("chat.reply.tokens")
                    .description("Completion tokens of the stored replies")
                    .tag("kind", kind.value())
                    .tag("tenant", tenant)
                    .register(meters)
                    .increment(Math.max(0, completionTokens));
            if (nanos > 0 && completionTokens > 0) {
                speed.get(kind).record(completionTokens / (nanos / 1e9));
            }
        }

        /** Why the reply was not stored: ai_error, database, internal, chat_deleted or taken_over. */
        void failed(String reason) {
            Counter.builder("chat.replies.failed")
                    .description("Replies (and reviews) that ended without being stored, by reason")
                    .tag("kind", kind.value())
                    .tag("reason", reason)
                    .tag("tenant", tenant)
                    .register(meters)
                    .increment();
        }
    }
}
