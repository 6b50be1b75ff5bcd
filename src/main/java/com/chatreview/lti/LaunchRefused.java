package com.chatreview.lti;

import java.time.Duration;

/**
 * A login or launch the tool does not go on with, and why, in words for the person in front of the LMS (the page
 * they see says it; nothing else is shown).
 */
public final class LaunchRefused extends RuntimeException {

    /**
     * Whose the failure is: the launch's (400), the service's for now (503), too many (429), or a
     * body larger than the service takes (413).
     */
    public enum Kind {
        REFUSED,
        UNAVAILABLE,
        TOO_MANY,
        TOO_LARGE
    }

    private final Kind kind;
    private final String reason;
    private final Duration retryAfter;

    private LaunchRefused(Kind kind, String reason, Duration retryAfter) {
        super(reason, null, false, false);
        this.kind = kind;
        this.reason = reason;
        this.retryAfter = retryAfter;
    }

    public static LaunchRefused because(String reason) {
        return new LaunchRefused(Kind.REFUSED, reason, Duration.ZERO);
    }

    /** The service could not finish now (a dependency down); the same launch may work in a moment. */
    public static LaunchRefused unavailable(String reason) {
        return new LaunchRefused(Kind.UNAVAILABLE, reason, Duration.ofSeconds(5));
    }

    /** A hand-in's body that is no multipart form: the request's fault, sent again it may work. */
    public static LaunchRefused malformedUpload(String reason) {
        return new LaunchRefused(Kind.REFUSED, reason, Duration.ZERO);
    }

    public static LaunchRefused tooLarge(String reason) {
        return new LaunchRefused(Kind.TOO_LARGE, reason, Duration.ZERO);
    }

    public static LaunchRefused tooMany(String reason, Duration retryAfter) {
        return new LaunchRefused(Kind.TOO_MANY, reason, retryAfter);
    }

    public Kind kind() {
        return kind;
    }

    public String reason() {
        return reason;
    }

    /** When to try again ({@code Retry-After}); zero for a refusal the same request would meet again. */
    public Duration retryAfter() {
        return retryAfter;
    }
}
