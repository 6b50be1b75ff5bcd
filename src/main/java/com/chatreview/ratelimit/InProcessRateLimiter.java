package com.chatreview.ratelimit;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.ConsumptionProbe;
import java.time.Duration;
import java.time.Instant;

/**
 * Bucket4j buckets in this JVM. Buckets nobody used for ten minutes, or for their quota's period when that is longer,
 * are dropped, so that one-off client addresses do not pile up; a dropped bucket comes back full, and by then its
 * quota's period has passed anyway.
 */
class InProcessRateLimiter implements RateLimiter {

    private static final Duration IDLE = Duration.ofMinutes(10);

    private record Held(Bucket bucket, Duration period) {}

    private final Cache<String, Held> buckets = Caffeine.newBuilder()
            .expireAfter(Expiry.accessing(
                    (String key, Held held) -> held.period().compareTo(IDLE) > 0 ? held.period() : IDLE))
            .build();
    private final Cache<String, Instant> marks =
            Caffeine.newBuilder().expireAfterWrite(Duration.ofHours(1)).build();

    @Override
    public RateLimitDecision tryConsume(String key, Quota quota) {
        ConsumptionProbe probe = bucket(key, quota).tryConsumeAndReturnRemaining(1);
        return new RateLimitDecision(
                probe.isConsumed(),
                quota.requests(),
                probe.getRemainingTokens(),
                probe.isConsumed() ? Duration.ZERO : Duration.ofNanos(probe.getNanosToWaitForRefill()),
                Duration.ofNanos(probe.getNanosToWaitForReset()));
    }

    @Override
    public Duration exhaustedFor(String key, Quota quota) {
        Held held = buckets.getIfPresent(key);
        if (held == null) {
            return Duration.ZERO;
        }
        return Duration.ofNanos(held.bucket().estimateAbilityToConsume(1).getNanosToWaitForRefill());
    }

    @Override
    public Guarded tryConsumeGuarded(String guard, Quota guardQuota, String mark, String key, Quota quota) {
        if (exhaustedFor(guard, guardQuota).isPositive()) {
            return new Guarded.GuardEmpty();
        }
        if (marked(mark)) {
            return new Guarded.Marked();
        }
        return new Guarded.Spent(tryConsume(key, quota));
    }

    @Override
    public void mark(String mark, Duration duration) {
        marks.put(mark, Instant.now().plus(duration));
    }

    @Override
    public boolean marked(String mark) {
        Instant until = marks.getIfPresent(mark);
        return until != null && until.isAfter(Instant.now());
    }

    private Bucket bucket(String key, Quota quota) {
        return buckets.get(
                        key,
                        k -> new Held(
                                Bucket.builder()
                                        .addLimit(limit -> limit.capacity(quota.requests())
                                                .refillIntervally(quota.requests(), quota.period()))
                                        .build(),
                                quota.period()))
                .bucket();
    }
}
