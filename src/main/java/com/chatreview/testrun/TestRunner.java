package com.chatreview.testrun;

import com.chatreview.homework.Homework;
import com.chatreview.homework.HomeworkFile;
import com.chatreview.homework.TestLanguage;
import com.chatreview.kernel.FileNames;
import com.chatreview.sandbox.Sandbox;
import com.chatreview.sandbox.SandboxLimits;
import com.chatreview.sandbox.SandboxResult;
import com.chatreview.sandbox.SandboxSettings;
import com.chatreview.sandbox.SandboxUnavailable;
import com.chatreview.testrun.TestRun.Outcome;
import com.chatreview.testrun.TestRun.State;
import com.chatreview.testrun.TestRun.TestResult;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Service;

/**
 * Runs a homework's tests against a submission's files, in the sandbox and nowhere else (docs/decisions.md,
 * Homework tests). The run's directory holds the student's files under their names and the teacher's test files
 * (which win over a student's file of the same name); a student's file that would configure the runner, or whose name
 * a program cannot be handed plainly, stays out, and the run's output says so.
 */
@Service
public class TestRunner {

    private final Sandbox sandbox;
    private final SandboxSettings settings;
    private final MeterRegistry meters;
    private final TestKits kits;

    TestRunner(Sandbox sandbox, SandboxSettings settings, MeterRegistry meters) {
        this.sandbox = sandbox;
        this.settings = settings;
        this.meters = meters;
        this.kits = new TestKits(settings.dir().resolve("tools"));
    }

    /**
     * The homework's tests run against the student's files; empty when the homework has none.
     *
     * @param studentFiles the submission's files by name, in upload order
     */
    public Optional<TestRun> run(Homework homework, Map<String, byte[]> studentFiles) throws InterruptedException {
        List<HomeworkFile> tests = homework.tests();
        Optional<TestLanguage> language = homework.testLanguage();
        if (tests.isEmpty() || language.isEmpty()) {
            return Optional.empty();
        }
        if (settings.mode() == SandboxSettings.Mode.OFF) {
            return Optional.of(TestRun.notRun("homework tests are switched off on this service (REVIEW_TESTS=off)"));
        }
        TestKit kit = kits.of(language.get());
        String runnerMissing = kit.whyUnavailable();
        if (runnerMissing != null) {
            meters.counter("tests.runs", "state", State.NOT_RUN.value()).increment();
            return Optional.of(
                    TestRun.notRun(language.get().displayName() + " tests cannot run on this node: " + runnerMissing));
        }
        Map<String, byte[]> files = new LinkedHashMap<>();
        List<String> keptOut = new ArrayList<>();
        for (Map.Entry<String, byte[]> file : studentFiles.entrySet()) {
            if (FileNames.isPlain(file.getKey()) && !kit.keptOut(file.getKey())) {
                files.put(file.getKey(), file.getValue());
            } else {
                keptOut.add(file.getKey());
            }
        }
        Map<String, String> testSources = new LinkedHashMap<>();
        for (HomeworkFile test : tests) {
            files.put(test.fileName(), test.content().getBytes(StandardCharsets.UTF_8));
            testSources.put(test.fileName(), test.content());
        }
        Set<String> studentNames = new LinkedHashSet<>(files.keySet());
        studentNames.removeAll(testSources.keySet());
        String report = "report-"
                + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong()) + ".xml";
        Duration wallTime = Duration.ofSeconds(homework.testTimeoutSeconds());
        SandboxLimits limits = new SandboxLimits(
                wallTime,
                wallTime,
                SandboxLimits.TESTS.memoryBytes(),
                SandboxLimits.TESTS.processes(),
                SandboxLimits.TESTS.fileBytes(),
                SandboxLimits.TESTS.openFiles(),
                SandboxLimits.TESTS.outputBytes());
        SandboxResult result;
        try {
            result = sandbox.run(files, kit.command(testSources, report), Set.of(report), limits, kit.tools());
        } catch (SandboxUnavailable unavailable) {
            meters.counter("tests.runs", "state", State.NOT_RUN.value()).increment();
            return Optional.of(TestRun.notRun("the sandbox cannot run here: " + unavailable.getMessage()));
        }
        TestRun run = new RunReading(kit, testSources, studentNames, homework.testTimeoutSeconds())
                .read(result, result.collected().get(report), keptOut);
        meters.counter("tests.runs", "state", run.state().value()).increment();
        return Optional.of(run);
    }

    /** What a finished (or stopped) run came to. */
    record RunReading(TestKit kit, Map<String, String> testSources, Set<String> studentFiles, int timeoutSeconds) {

        TestRun read(SandboxResult result, byte @Nullable [] report, List<String> keptOut) {
            String output = output(result, keptOut);
            Optional<List<JUnitXml.Case>> cases = report == null ? Optional.empty() : JUnitXml.read(report);
            long took = result.took().toMillis();
            List<String> declared = kit.declaredTests(testSources);
            if (result.timedOut()) {
                return stopped(kit.finished(result.output()), declared, took, output);
            }
            if (cases.isEmpty()) {
                String why = kit.firstError(result.output())
                        .orElse("the test runner ended (exit status " + result.exitCode() + ") without a report");
                return notLoaded(why, studentPlace(result.output()), declared, took, output);
            }
            List<JUnitXml.Case> loadFailures =
                    cases.get().stream().filter(kit::isLoadFailure).toList();
            if (!loadFailures.isEmpty()) {
                JUnitXml.Case failure = loadFailures.getFirst();
                String trace = failure.detail() == null ? "" : failure.detail();
                // the runner may keep the error's text to its output (Node.js does) and name only the file in the
                // report
                String why = kit.firstError(trace)
                        .or(() -> kit.firstError(result.output()))
                        .orElse("the tests could not be loaded");
                TestKit.@Nullable Place place = studentPlace(trace);
                return notLoaded(why, place != null ? place : studentPlace(result.output()), declared, took, output);
            }
            List<TestResult> results = new ArrayList<>();
            for (JUnitXml.Case testCase : cases.get()) {
                results.add(result(testCase));
            }
            return counted(results, results.isEmpty() ? State.ERROR : null, took, output, null);
        }

        private TestResult result(JUnitXml.Case testCase) {
            String message = null;
            TestKit.@Nullable Place place = null;
            if (testCase.outcome() != Outcome.PASSED) {
                String trace = testCase.detail() == null ? "" : testCase.detail();
                message = testCase.message() != null && !testCase.message().isBlank()
                        ? testCase.message()
                        : kit.firstError(trace).orElse(testCase.outcome().value());
                place = studentPlace(trace);
            }
            return new TestResult(
                    kit.name(testCase),
                    testCase.outcome(),
                    message == null ? null : Utf8.cut(message.strip(), TestRun.MAX_MESSAGE_BYTES),
                    Math.round(testCase.seconds() * 1000),
                    place == null ? null : place.file(),
                    place == null ? null : place.line());
        }

        /** The last place of a trace in a student's file: where the student's code failed. */
        private TestKit.@Nullable Place studentPlace(String trace) {
            TestKit.@Nullable Place found = null;
            for (TestKit.Place place : kit.places(trace)) {
                if (studentFiles.contains(place.file())) {
                    found = place;
                }
            }
            return found;
        }

        /** Nothing could be tested: the student's code does not compile or load. Every declared test fails with it. */
        private TestRun notLoaded(
                String why, TestKit.@Nullable Place place, List<String> declared, long took, String output) {
            List<String> names = declared.isEmpty() ? List.of("(loading the tests)") : declared;
            List<TestResult> results = new ArrayList<>();
            for (String name : names) {
                results.add(new TestResult(
                        name,
                        Outcome.ERROR,
                        Utf8.cut(why, TestRun.MAX_MESSAGE_BYTES),
                        0,
                        place == null ? null : place.file(),
                        place == null ? null : place.line()));
            }
            return counted(results, State.ERROR, took, output, null);
        }

        /** The run was stopped at its wall time: the tests it finished count as they came, the rest as failed. */
        private TestRun stopped(Map<String, Outcome> finished, List<String> declared, long took, String output) {
            List<TestResult> results = new ArrayList<>();
            String stopped = "did not finish within " + timeoutSeconds + " s: the run was stopped";
            finished.forEach((name, outcome) -> results.add(
                    new TestResult(name, outcome, outcome == Outcome.PASSED ? null : outcome.value(), 0, null, null)));
            for (String name : declared) {
                if (!finished.containsKey(name)
                        && finished.keySet().stream().noneMatch(n -> n.startsWith(name + "["))) {
                    results.add(new TestResult(name, Outcome.ERROR, stopped, 0, null, null));
                }
            }
            if (results.stream().allMatch(r -> r.outcome() == Outcome.PASSED)) {
                results.add(new TestResult("(the rest of the run)", Outcome.ERROR, stopped, 0, null, null));
            }
            return counted(results, State.TIMEOUT, took, output, "the run took longer than " + timeoutSeconds + " s");
        }

        private static TestRun counted(
                List<TestResult> results, @Nullable State forced, long took, String output, @Nullable String reason) {
            int passed = (int)
                    results.stream().filter(r -> r.outcome() == Outcome.PASSED).count();
            int failed = (int) results.stream()
                    .filter(r -> r.outcome() == Outcome.FAILED || r.outcome() == Outcome.ERROR)
                    .count();
            State state = forced != null ? forced : failed == 0 ? State.PASSED : State.FAILED;
            List<TestResult> kept =
                    results.size() > TestRun.MAX_RESULTS ? results.subList(0, TestRun.MAX_RESULTS) : results;
            return new TestRun(state, passed, failed, results.size(), took, kept, output, reason);
        }

        private static String output(SandboxResult result, List<String> keptOut) {
            StringBuilder output = new StringBuilder();
            if (!keptOut.isEmpty()) {
                output.append("Left out of the run (they would configure the test runner, or their names are not plain"
                                + " file names): ")
                        .append(String.join(", ", keptOut))
                        .append("\n");
            }
            output.append(result.output());
            if (result.outputCut()) {
                output.append("\n[the run printed more than the service keeps; the rest was dropped]");
            }
            return Utf8.cut(output.toString(), TestRun.MAX_OUTPUT_BYTES);
        }
    }
}
