package com.chatreview.assistant;

import java.util.Locale;
import org.jspecify.annotations.Nullable;

/** The assistant could not produce a complete reply; nothing of it is to be stored. */
public class AssistantFailure extends RuntimeException {

    /** What went wrong, as the operator's metrics count it ({@code ai_provider_errors_total{kind}}). */
    public enum Kind {
        /** The provider sent nothing within the first-token or the idle timeout. */
        TIMEOUT,
        /** The provider answered 429. */
        RATE_LIMITED,
        /** The provider answered 5xx, or reported an error in its stream. */
        PROVIDER_ERROR,
        /** The provider refused the request (another 4xx). */
        REFUSED,
        /** The provider could not be reached. */
        UNREACHABLE,
        /** A review's answer did not validate, twice. */
        INVALID_ANSWER,
        /** The stream ended without saying why. */
        INCOMPLETE,
        /** The reply was cancelled (the node is stopping). */
        CANCELLED,
        OTHER;

        public String value() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private final Kind kind;

    public AssistantFailure(String message) {
        this(Kind.OTHER, message, null);
    }

    public AssistantFailure(String message, Throwable cause) {
        this(Kind.OTHER, message, cause);
    }

    public AssistantFailure(Kind kind, String message, @Nullable Throwable cause) {
        super(message, cause);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }
}
