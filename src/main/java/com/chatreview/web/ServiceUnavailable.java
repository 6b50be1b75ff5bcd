package com.chatreview.web;

import java.time.Duration;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;

/**
 * What the request needs cannot be reached or decided now (a dependency is down): 503 {@code SERVICE_UNAVAILABLE}
 * with {@code Retry-After}; nothing was done.
 */
public class ServiceUnavailable extends ServiceError {

    private final Duration retryAfter;

    public ServiceUnavailable(String detail, String fix, Duration retryAfter) {
        super(HttpStatus.SERVICE_UNAVAILABLE, "SERVICE_UNAVAILABLE", detail, fix);
        this.retryAfter = retryAfter;
    }

    public Duration retryAfter() {
        return retryAfter;
    }

    @Override
    public HttpHeaders headers() {
        HttpHeaders headers = new HttpHeaders();
        headers.set(HttpHeaders.RETRY_AFTER, Long.toString(Math.max(1, (retryAfter.toMillis() + 999) / 1000)));
        return headers;
    }
}
