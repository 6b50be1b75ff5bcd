package com.chatreview.lti.platform;

import java.time.Duration;

/**
 * What the platform does to one request before (or instead of) answering it: wait, answer with a status, or treat
 * the bearer token as expired (401, and the token stays refused), or answer at length.
 */
public record Fault(Duration delay, int status, boolean expireToken, int padding) {

    /** Answers this status (and a short body) instead of handling the request. */
    public static Fault status(int status) {
        return new Fault(Duration.ZERO, status, false, 0);
    }

    /** Handles the request, but only after this long: past the client's timeout, a timeout. */
    public static Fault slow(Duration delay) {
        return new Fault(delay, 0, false, 0);
    }

    /** Refuses the request's access token as expired, as a platform whose token lifetime ended does. */
    public static Fault expiredToken() {
        return new Fault(Duration.ZERO, 401, true, 0);
    }

    /** Handles the request, and answers at length: this many spaces after the answer's body. */
    public static Fault longAnswer(int padding) {
        return new Fault(Duration.ZERO, 0, false, padding);
    }
}
