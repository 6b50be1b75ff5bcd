package com.chatreview.kernel;

import java.time.Duration;

/**
 * What the request needs cannot be reached or decided now (a dependency is down): {@code SERVICE_UNAVAILABLE},
 * to be tried again after {@link #retryAfter()}; nothing was done.
 */
public class ServiceUnavailable extends ServiceError implements RetryLater {

    private final Duration retryAfter;

    public ServiceUnavailable(String detail, String fix, Duration retryAfter) {
        super(Code.SERVICE_UNAVAILABLE, detail, fix);
        this.retryAfter = retryAfter;
    }

    @Override
    public Duration retryAfter() {
        return retryAfter;
    }
}
