package com.chatreview.testrun;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * What a run of a homework's tests against a submission came to: the submission's {@code tests} (docs/api.md,
 * Homework tests). {@code failed} counts the tests that failed or erred, skipped ones count in {@code total} but not
 * as passed, so that no submission earns points by having the tests skip.
 *
 * @param durationMs how long the run took, from its start to its end (0 when it did not run)
 * @param results the tests one by one, in the order they ran (at most {@link #MAX_RESULTS})
 * @param output the start of what the run printed (at most {@link #MAX_OUTPUT_BYTES} bytes of UTF-8)
 * @param reason why the tests were not run, or why the run was stopped; {@code null} when it ran to its end
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
public record TestRun(
        State state,
        int passed,
        int failed,
        int total,
        long durationMs,
        List<TestResult> results,
        String output,
        @Nullable String reason) {

    public static final int MAX_RESULTS = 500;
    public static final int MAX_MESSAGE_BYTES = 1024;
    public static final int MAX_OUTPUT_BYTES = 4096;

    public TestRun {
        results = List.copyOf(results);
    }

    /** The tests were not run: no sandbox here, or tests are off. */
    public static TestRun notRun(String reason) {
        return new TestRun(State.NOT_RUN, 0, 0, 0, 0, List.of(), "", reason);
    }

    /** Whether the run reached its tests' results (every state but {@code not_run}). */
    public boolean ran() {
        return state != State.NOT_RUN;
    }

    /** The tests that failed or erred, in the order they ran. */
    public List<TestResult> failures() {
        return results.stream()
                .filter(result -> result.outcome() == Outcome.FAILED || result.outcome() == Outcome.ERROR)
                .toList();
    }

    public enum State {
        PASSED,
        FAILED,
        /** The tests could not be run as written: the submission does not compile or import, or the runner broke. */
        ERROR,
        TIMEOUT,
        NOT_RUN;

        @JsonValue
        public String value() {
            return name().toLowerCase(Locale.ROOT);
        }

        @JsonCreator
        public static State of(String value) {
            return valueOf(value.toUpperCase(Locale.ROOT));
        }
    }

    public enum Outcome {
        PASSED,
        FAILED,
        ERROR,
        SKIPPED;

        @JsonValue
        public String value() {
            return name().toLowerCase(Locale.ROOT);
        }

        @JsonCreator
        public static Outcome of(String value) {
            return valueOf(value.toUpperCase(Locale.ROOT));
        }
    }

    /**
     * One test.
     *
     * @param name as its runner names it, with its class where it has one ({@code TestMedian.test_even})
     * @param message why it failed, erred or was skipped (at most {@link #MAX_MESSAGE_BYTES} bytes); {@code null}
     *     when it passed
     * @param file the student's file its failure's trace points into, if it does
     * @param line the line of that file
     */
    public record TestResult(
            String name,
            Outcome outcome,
            @Nullable String message,
            long durationMs,
            @Nullable String file,
            @Nullable Integer line) {}
}
