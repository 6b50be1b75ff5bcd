package com.chatreview.web;

import com.chatreview.kernel.ServiceError;
import org.springframework.http.HttpStatus;

/**
 * The one table from a failure's {@link ServiceError.Code} to the HTTP status its problem body goes out with.
 * Exhaustive: a new code without a status does not compile, rather than going out as a 500.
 */
public final class ProblemStatus {

    private ProblemStatus() {}

    public static HttpStatus of(ServiceError.Code code) {
        return switch (code) {
            case VALIDATION_ERROR -> HttpStatus.BAD_REQUEST;
            case UNAUTHORIZED, EMBED_TOKEN_REQUIRED, EMBED_TOKEN_INVALID, EMBED_TOKEN_EXPIRED ->
                HttpStatus.UNAUTHORIZED;
            case ADMIN_API_DISABLED -> HttpStatus.FORBIDDEN;
            case NOT_FOUND -> HttpStatus.NOT_FOUND;
            case CONFLICT, CHAT_CLOSED, IDEMPOTENCY_KEY_IN_USE -> HttpStatus.CONFLICT;
            case IDEMPOTENCY_KEY_REUSED -> HttpStatus.UNPROCESSABLE_CONTENT;
            case PAYLOAD_TOO_LARGE -> HttpStatus.CONTENT_TOO_LARGE;
            case STORAGE_QUOTA_EXCEEDED -> HttpStatus.FORBIDDEN;
            case RATE_LIMITED -> HttpStatus.TOO_MANY_REQUESTS;
            case SERVICE_UNAVAILABLE -> HttpStatus.SERVICE_UNAVAILABLE;
        };
    }
}
