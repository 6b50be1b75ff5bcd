package com.chatreview.ratelimit;

/**
 * Spends from named quotas. The in-process implementation is the single-node default; a Redis-backed one makes
 * the same quotas hold across every node of a cluster.
 */
public interface RateLimiter {

    /** Spends one from the bucket named {@code key}, which holds {@code quota}. */
    RateLimitDecision tryConsume(String key, Quota quota);

    /** Whether the bucket named {@code key} has nothing left, without spending from it. */
    boolean isExhausted(String key, Quota quota);
}
