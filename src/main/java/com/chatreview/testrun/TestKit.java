package com.chatreview.testrun;

import com.chatreview.testrun.TestRun.Outcome;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/** How one language's tests are run and read: the runner's command, and what its report and output mean. */
interface TestKit {

    /** Why this language's tests cannot run on this node (its runner is not installed); {@code null} when they can. */
    @Nullable
    String whyUnavailable();

    /** Files of the host the run reads, by their name under {@code /tools}: mounted read-only. */
    default Map<String, Path> tools() {
        return Map.of();
    }

    /**
     * Whether a student's file of this name stays out of the run: it would configure the runner, or add tests of
     * the student's own to the teacher's.
     */
    boolean keptOut(String fileName);

    /**
     * The command that runs the test files and writes the JUnit XML report to {@code report}.
     *
     * @param testFiles the teacher's test files, name to source, in the homework's order
     */
    List<String> command(Map<String, String> testFiles, String report);

    /**
     * The tests the test files declare, by the name the report gives them: what a run that could not collect or finish
     * them counts as not passed.
     */
    List<String> declaredTests(Map<String, String> testFiles);

    /** A report's test case by the name the student reads. */
    String name(JUnitXml.Case testCase);

    /** Whether the report's case stands for a test file that could not be loaded, rather than a test. */
    boolean isLoadFailure(JUnitXml.Case testCase);

    /** The places a trace points to, outermost first. */
    List<Place> places(String trace);

    /** The first line of a compiler's or interpreter's error in a run's output or a failure's trace. */
    Optional<String> firstError(String text);

    /** The tests a run's output shows finished, by name, when the run was stopped before its report. */
    Map<String, Outcome> finished(String output);

    record Place(String file, int line) {}
}
