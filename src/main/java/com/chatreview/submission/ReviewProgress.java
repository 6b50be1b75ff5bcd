package com.chatreview.submission;

import java.time.Instant;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Where the AI review of a submission stands.
 *
 * @param failedAttempts the failed attempts of the current round (an operator's retry starts a new round)
 * @param error why the latest attempt failed, or {@code null}
 * @param reviewedAt when analysis and grade were stored, or {@code null}
 */
public record ReviewProgress(
        State state,
        int failedAttempts,
        @Nullable String error,
        @Nullable Instant reviewedAt) {

    public static final ReviewProgress PENDING = new ReviewProgress(State.PENDING, 0, null, null);

    public enum State {
        /** The review job is queued, running, or waiting to retry. */
        PENDING("pending"),
        /** An AI budget of the tenant or the student is spent: the job runs once it allows (docs/api.md, Usage and budgets). */
        WAITING_FOR_BUDGET("waiting_for_budget"),
        /** Analysis and grade are stored. */
        DONE("done"),
        /** The job gave up; the analysis says why, and an operator can retry. */
        FAILED("failed");

        private final String value;

        State(String value) {
            this.value = value;
        }

        public String value() {
            return value;
        }

        static Optional<State> of(String value) {
            for (State state : values()) {
                if (state.value.equals(value)) {
                    return Optional.of(state);
                }
            }
            return Optional.empty();
        }
    }
}
