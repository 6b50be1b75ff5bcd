package com.chatreview.ratelimit;

import java.time.Duration;

/** So many requests per period; the whole allowance comes back at the end of each period. */
public record Quota(long requests, Duration period) {

    public Quota {
        if (requests < 1 || period.isNegative() || period.isZero()) {
            throw new IllegalArgumentException("a quota needs at least one request in a positive period");
        }
    }

    public static Quota perMinute(long requests) {
        return new Quota(requests, Duration.ofMinutes(1));
    }

    public static Quota perSecond(long requests) {
        return new Quota(requests, Duration.ofSeconds(1));
    }
}
