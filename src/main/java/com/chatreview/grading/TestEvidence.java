package com.chatreview.grading;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What the homework's tests showed about a submission, as the grading reads it: how many of them pass, and each
 * that does not, with its message and the student's line its trace names.
 *
 * @param ran whether the tests ran (a run stopped at its time limit, or of work that does not compile, ran)
 * @param passed the tests that passed
 * @param total every test the run counted, skipped ones included
 * @param failures the tests that failed or erred, in the order they ran
 * @param note how the run ended when not every test could run ("the run took longer than 10 s", "SyntaxError: ...")
 *     or why the tests did not run at all; {@code null} otherwise
 */
public record TestEvidence(
        boolean ran,
        int passed,
        int total,
        List<FailedTest> failures,
        @Nullable String note) {

    public TestEvidence {
        failures = List.copyOf(failures);
    }

    public static TestEvidence notRun(String reason) {
        return new TestEvidence(false, 0, 0, List.of(), reason);
    }

    /**
     * @param file the student's file the failure's trace points into, or {@code null}
     * @param line its line there, or {@code null}
     */
    public record FailedTest(
            String name,
            @Nullable String message,
            @Nullable String file,
            @Nullable Integer line) {}
}
