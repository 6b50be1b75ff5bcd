package com.chatreview.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.kernel.PayloadTooLarge;
import com.chatreview.kernel.ServiceError;
import com.chatreview.kernel.ServiceError.Code;
import com.chatreview.kernel.ServiceUnavailable;
import com.chatreview.ratelimit.RateLimited;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.web.context.request.ServletWebRequest;

/**
 * Every code a domain error can carry goes out with a status of its own, the one the interface gives it; never as
 * the 500 of an unknown failure. The facts an error carries become the headers they always were.
 */
class ProblemStatusTests {

    /** What clients see today (docs/api.md, Conventions and the service interface), pinned code by code. */
    private static final Map<Code, HttpStatus> INTERFACE = new EnumMap<>(Map.ofEntries(
            Map.entry(Code.VALIDATION_ERROR, HttpStatus.BAD_REQUEST),
            Map.entry(Code.UNAUTHORIZED, HttpStatus.UNAUTHORIZED),
            Map.entry(Code.EMBED_TOKEN_REQUIRED, HttpStatus.UNAUTHORIZED),
            Map.entry(Code.EMBED_TOKEN_INVALID, HttpStatus.UNAUTHORIZED),
            Map.entry(Code.EMBED_TOKEN_EXPIRED, HttpStatus.UNAUTHORIZED),
            Map.entry(Code.ADMIN_API_DISABLED, HttpStatus.FORBIDDEN),
            Map.entry(Code.NOT_FOUND, HttpStatus.NOT_FOUND),
            Map.entry(Code.CONFLICT, HttpStatus.CONFLICT),
            Map.entry(Code.CHAT_CLOSED, HttpStatus.CONFLICT),
            Map.entry(Code.IDEMPOTENCY_KEY_IN_USE, HttpStatus.CONFLICT),
            Map.entry(Code.IDEMPOTENCY_KEY_REUSED, HttpStatus.UNPROCESSABLE_CONTENT),
            Map.entry(Code.PAYLOAD_TOO_LARGE, HttpStatus.CONTENT_TOO_LARGE),
            Map.entry(Code.STORAGE_QUOTA_EXCEEDED, HttpStatus.FORBIDDEN),
            Map.entry(Code.RATE_LIMITED, HttpStatus.TOO_MANY_REQUESTS),
            Map.entry(Code.SERVICE_UNAVAILABLE, HttpStatus.SERVICE_UNAVAILABLE)));

    @ParameterizedTest
    @EnumSource(Code.class)
    void everyCodeHasTheStatusTheInterfaceGivesIt(Code code) {
        assertThat(INTERFACE).as("the status clients expect for %s", code).containsKey(code);
        assertThat(ProblemStatus.of(code)).isEqualTo(INTERFACE.get(code));
        assertThat(ProblemStatus.of(code)).isNotEqualTo(HttpStatus.INTERNAL_SERVER_ERROR);
    }

    @Test
    void aSpentQuotaSaysWhenToComeBack() {
        ResponseEntity<Object> response = render(new RateLimited("spent", "wait", 7));

        assertThat(response.getStatusCode()).isEqualTo(HttpStatus.TOO_MANY_REQUESTS);
        assertThat(response.getHeaders().getFirst(HttpHeaders.RETRY_AFTER)).isEqualTo("7");
        assertThat(((ProblemDetail) Objects.requireNonNull(response.getBody(), "a problem body")).getProperties())
                .containsEntry("code", "RATE_LIMITED")
                .containsEntry("fix", "wait");
    }

    @Test
    void anUnreachableDependencySaysWhenToComeBackInWholeSeconds() {
        ResponseEntity<Object> response = render(new ServiceUnavailable("down", "again", Duration.ofMillis(1_500)));

        assertThat(response.getStatusCode()).isEqualTo(HttpStatus.SERVICE_UNAVAILABLE);
        assertThat(response.getHeaders().getFirst(HttpHeaders.RETRY_AFTER)).isEqualTo("2");
    }

    @Test
    void aBodyTooLargeClosesTheConnection() {
        ResponseEntity<Object> response = render(new PayloadTooLarge("too large", "smaller"));

        assertThat(response.getStatusCode()).isEqualTo(HttpStatus.CONTENT_TOO_LARGE);
        assertThat(response.getHeaders().getFirst(HttpHeaders.CONNECTION)).isEqualTo("close");
        assertThat(response.getHeaders().getFirst(HttpHeaders.RETRY_AFTER)).isNull();
    }

    private static ResponseEntity<Object> render(ServiceError error) {
        return new ProblemRendering().serviceError(error, new ServletWebRequest(new MockHttpServletRequest()));
    }
}
