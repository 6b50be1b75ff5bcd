package com.chatreview.ratelimit;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.ConsumptionProbe;
import java.time.Duration;
import java.time.Instant;

/**
 * Bucket4j buckets in this JVM. Buckets nobody used for ten minutes are dropped, so that one-off client
 * addresses do not pile up; a dropped bucket comes back full, which no quota here outlives anyway.
 */
class InProcessRateLimiter implements RateLimiter {

    private final Cache<String, Bucket> buckets =
            Caffeine.newBuilder().expireAfterAccess(Duration.ofMinutes(10)).build();
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
        Bucket bucket = buckets.getIfPresent(key);
        if (bucket == null) {
            return Duration.ZERO;
        }
        return Duration.ofNanos(bucket.estimateAbilityToConsume(1).getNanosToWaitForRefill());
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
                k -> Bucket.builder()
                        .addLimit(limit ->
                                limit.capacity(quota.requests()).refillIntervally(quota.requests(), quota.period()))
                        .build());
    }
}
