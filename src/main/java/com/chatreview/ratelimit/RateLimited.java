package com.chatreview.ratelimit;

import com.chatreview.kernel.RetryLater;
import com.chatreview.kernel.ServiceError;
import java.time.Duration;

/** A quota is spent: {@code RATE_LIMITED}, to be tried again after {@link #retryAfter()} (at least a second). */
public final class RateLimited extends ServiceError implements RetryLater {

    private final Duration retryAfter;

    public RateLimited(String detail, String fix, long retryAfterSeconds) {
        super(Code.RATE_LIMITED, detail, fix);
        this.retryAfter = Duration.ofSeconds(Math.max(1, retryAfterSeconds));
    }

    @Override
    public Duration retryAfter() {
        return retryAfter;
    }
}
