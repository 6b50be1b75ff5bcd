package com.chatreview.ratelimit;

import java.time.Duration;

/**
 * Spends from named quotas. The in-process implementation is the single-node default; the Redis one makes the same
 * quotas hold across every node of a cluster.
 */
public interface RateLimiter {

    /** Spends one from the bucket named {@code key}, which holds {@code quota}. */
    RateLimitDecision tryConsume(String key, Quota quota);

    /**
     * How long the bucket named {@code key} stays empty, without spending from it; {@link Duration#ZERO} when it has
     * something left.
     */
    Duration exhaustedFor(String key, Quota quota);

    /**
     * Spends one from {@code key} unless the bucket {@code guard} is empty, in one step (one round trip to Redis):
     * {@code null} when the guard is empty, otherwise the decision on {@code key}.
     */
    RateLimitDecision tryConsumeUnlessExhausted(String guard, Quota guardQuota, String key, Quota quota);
}
