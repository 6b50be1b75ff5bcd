package com.chatreview.submission;

import java.time.Instant;
import java.util.Locale;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * A student's request that the teacher look again at a criterion's points, or at the whole grade (docs/api.md,
 * Regrade requests), and the teacher's answer.
 *
 * @param criterionId the criterion it is about, or {@code null} for the whole grade
 * @param answer the teacher's answer, {@code null} while it is open
 * @param answeredBy the teacher as the client named them, or {@code null}
 */
public record RegradeRequest(
        UUID id,
        SubmissionId submissionId,
        @Nullable String criterionId,
        String message,
        State state,
        @Nullable String answer,
        Instant createdAt,
        @Nullable Instant answeredAt,
        @Nullable String answeredBy) {

    /** At most this many open requests per submission: the teacher answers before more come. */
    public static final int MAX_OPEN = 3;

    public static final int MAX_MESSAGE = 2_000;
    public static final int MAX_ANSWER = 4_000;

    public enum State {
        OPEN,
        ANSWERED;

        public String value() {
            return name().toLowerCase(Locale.ROOT);
        }

        static State of(String value) {
            return valueOf(value.toUpperCase(Locale.ROOT));
        }
    }
}
