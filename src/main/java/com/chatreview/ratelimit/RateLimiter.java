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

    /** What a guarded spend found. */
    sealed interface Guarded {
        /** The guard's bucket was empty: nothing was spent. */
        record GuardEmpty() implements Guarded {}

        /** The mark was set ({@link #mark}): nothing was spent. */
        record Marked() implements Guarded {}

        record Spent(RateLimitDecision decision) implements Guarded {}
    }

    /**
     * Spends one from {@code key} unless the bucket {@code guard} is empty or {@code mark} is set, in one step (one
     * round trip to Redis, shared with concurrent spends of the same key).
     */
    Guarded tryConsumeGuarded(String guard, Quota guardQuota, String mark, String key, Quota quota);

    /** Sets the mark for a while: guarded spends naming it spend nothing. */
    void mark(String mark, Duration duration);

    /** Whether the mark is set. */
    boolean marked(String mark);
}
