package com.chatreview.ratelimit;

import com.chatreview.web.ServiceError;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;

/** A quota is spent: 429 {@code RATE_LIMITED} with {@code Retry-After}. */
public final class RateLimited extends ServiceError {

    private final long retryAfterSeconds;

    public RateLimited(String detail, String fix, long retryAfterSeconds) {
        super(HttpStatus.TOO_MANY_REQUESTS, "RATE_LIMITED", detail, fix);
        this.retryAfterSeconds = Math.max(1, retryAfterSeconds);
    }

    @Override
    public HttpHeaders headers() {
        HttpHeaders headers = new HttpHeaders();
        headers.set(HttpHeaders.RETRY_AFTER, Long.toString(retryAfterSeconds));
        return headers;
    }
}
