package com.chatreview.conversation;

import com.chatreview.assistant.AssistantFailure;
import com.chatreview.metrics.TenantTags;
import com.chatreview.tenancy.TenantId;
import com.chatreview.usage.UsageKind;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;

/**
 * The series of the replies an operator watches (docs/deployment.md, "Metrics an operator watches"): replies
 * started, finished and failed, first-token latency, reply duration and generation speed, AI provider errors by
 * kind. Per tenant only where {@link TenantTags} names it.
 */
@Component
class ConversationMetrics {

    private final MeterRegistry meters;
    private final TenantTags tenants;
    private final Map<UsageKind, Timer> firstToken = new EnumMap<>(UsageKind.class);
    private final Map<UsageKind, Timer> duration = new EnumMap<>(UsageKind.class);
    private final Map<UsageKind, DistributionSummary> speed = new EnumMap<>(UsageKind.class);
    private final Map<CounterKey, Counter> counters = new ConcurrentHashMap<>();

    ConversationMetrics(MeterRegistry meters, TenantTags tenants) {
        this.meters = meters;
        this.tenants = tenants;
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

    /** A reply starts streaming; the returned handle records how it goes. */
    Reply replyStarted(TenantId tenant, UsageKind kind) {
        String tenantTag = tenants.of(tenant);
        counter(CounterName.STARTED, kind, tenantTag, null).increment();
        return new Reply(kind, tenantTag, System.nanoTime());
    }

    /**
     * A reply's counter, registered once: a reply counts in three, and building each one's id (its tags sorted) for
     * the registry to look up was a tenth of a reply's metrics. The tenant tags are bounded ({@link TenantTags}).
     */
    private Counter counter(CounterName name, UsageKind kind, String tenant, @Nullable String reason) {
        return counters.computeIfAbsent(new CounterKey(name, kind, tenant, reason), key -> {
            Counter.Builder builder =
                    Counter.builder(name.meter).description(name.description).tag("kind", kind.value());
            if (reason != null) {
                builder.tag("reason", reason);
            }
            return builder.tag("tenant", tenant).register(meters);
        });
    }

    private enum CounterName {
        STARTED("chat.replies.started", "Replies (and reviews) that started streaming"),
        FINISHED("chat.replies.finished", "Replies (and reviews) streamed and stored"),
        TOKENS("chat.reply.tokens", "Completion tokens of the stored replies"),
        FAILED("chat.replies.failed", "Replies (and reviews) that ended without being stored, by reason");

        private final String meter;
        private final String description;

        CounterName(String meter, String description) {
            this.meter = meter;
            this.description = description;
        }
    }

    private record CounterKey(
            CounterName name,
            UsageKind kind,
            String tenant,
            @Nullable String reason) {}

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
                meter(firstToken, kind).record(System.nanoTime() - started, java.util.concurrent.TimeUnit.NANOSECONDS);
            }
        }

        void finished(int completionTokens) {
            long nanos = System.nanoTime() - started;
            meter(duration, kind).record(nanos, java.util.concurrent.TimeUnit.NANOSECONDS);
            counter(CounterName.FINISHED, kind, tenant, null).increment();
            counter(CounterName.TOKENS, kind, tenant, null).increment(Math.max(0, completionTokens));
            if (nanos > 0 && completionTokens > 0) {
                meter(speed, kind).record(completionTokens / (nanos / 1e9));
            }
        }

        /** Why the reply was not stored: ai_error, database, internal, chat_deleted or taken_over. */
        void failed(String reason) {
            counter(CounterName.FAILED, kind, tenant, reason).increment();
        }
    }

    /** Every kind's meters are registered at start. */
    private static <M> M meter(Map<UsageKind, M> meters, UsageKind kind) {
        return Objects.requireNonNull(meters.get(kind), kind::value);
    }
}
