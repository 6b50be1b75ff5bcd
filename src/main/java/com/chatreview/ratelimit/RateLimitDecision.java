package com.chatreview.ratelimit;

import java.time.Duration;

/**
 * The answer to one attempt to spend from a quota.
 *
 * @param allowed whether the attempt fits the quota
 * @param limit the quota's size
 * @param remaining what is left of it after this attempt
 * @param retryAfter when an attempt will fit again (zero when allowed)
 * @param resetAfter when the quota is whole again
 */
public record RateLimitDecision(boolean allowed, long limit, long remaining, Duration retryAfter, Duration resetAfter) {

    /** Whole seconds, rounded up, as HTTP headers want them. */
    public static long seconds(Duration duration) {
        long millis = duration.toMillis();
        return millis <= 0 ? 0 : (millis + 999) / 1000;
    }
}
