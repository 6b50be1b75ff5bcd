package com.chatreview.testrun;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.grading.Rubric;
import com.chatreview.homework.Course;
import com.chatreview.homework.Homework;
import com.chatreview.homework.HomeworkFile;
import com.chatreview.homework.HomeworkId;
import com.chatreview.sandbox.RequiresSandbox;
import com.chatreview.sandbox.Sandbox;
import com.chatreview.sandbox.SandboxSettings;
import com.chatreview.tenancy.TenantId;
import com.chatreview.testrun.TestRun.Outcome;
import com.chatreview.testrun.TestRun.State;
import com.chatreview.testrun.TestRun.TestResult;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.util.FileSystemUtils;

/** A homework's Python tests run against submissions in the sandbox, and what each kind of submission comes to. */
@Tag("sandbox")
@ExtendWith(RequiresSandbox.class)
class TestRunnerTests {

    static final String TESTS = """
            import pytest
            from fractions_hw import add_fractions, median

            def test_adds_with_common_denominator():
                assert add_fractions(1, 4, 2, 4) == (3, 4)

            def test_adds_with_different_denominators():
                assert add_fractions(1, 2, 1, 3) == (5, 6)

            def test_reduces_to_lowest_terms():
                assert add_fractions(1, 4, 1, 4) == (1, 2)

            class TestMedian:
                def test_odd_length(self):
                    assert median([3, 1, 2]) == 2

                def test_even_length(self):
                    assert median([4, 1, 3, 2]) == 2.5
            """;

    static final String CORRECT = """
            from math import gcd

            def add_fractions(a, b, c, d):
                numerator, denominator = a * d + c * b, b * d
                common = gcd(numerator, denominator)
                return numerator // common, denominator // common

            def median(values):
                ordered = sorted(values)
                half, odd = divmod(len(ordered), 2)
                return ordered[half] if odd else (ordered[half - 1] + ordered[half]) / 2
            """;

    static Path root;
    static TestRunner runner;

    @BeforeAll
    static void aRunner() throws IOException {
        root = Files.createTempDirectory("crs-test-runs");
        runner = runner(SandboxSettings.Mode.SANDBOX);
    }

    @AfterAll
    static void removed() throws IOException {
        FileSystemUtils.deleteRecursively(root);
    }

    static TestRunner runner(SandboxSettings.Mode mode) {
        return new TestRunner(new Sandbox(root, 2), new SandboxSettings(mode, root, 2), new SimpleMeterRegistry());
    }

    @Test
    void aCorrectSubmissionWrittenItsOwnWayPassesEveryTest() throws Exception {
        TestRun run = run(homework(5), Map.of("fractions_hw.py", CORRECT));

        assertThat(run.state()).as(run.output()).isEqualTo(State.PASSED);
        assertThat(run.passed()).isEqualTo(5);
        assertThat(run.failed()).isZero();
        assertThat(run.total()).isEqualTo(5);
        assertThat(run.results())
                .extracting(TestResult::name)
                .containsExactly(
                        "test_adds_with_common_denominator",
                        "test_adds_with_different_denominators",
                        "test_reduces_to_lowest_terms",
                        "TestMedian.test_odd_length",
                        "TestMedian.test_even_length");
        assertThat(run.results())
                .allSatisfy(result -> assertThat(result.message()).isNull());
        assertThat(run.reason()).isNull();
        assertThat(run.durationMs()).isPositive();
    }

    @Test
    void aSubtlyWrongSubmissionFailsTheTestsItGetsWrongWithTheirMessages() throws Exception {
        String buggy =
                CORRECT.replace("a * d + c * b", "a * c + c * b").replace("ordered[half - 1] + ", "ordered[half] + ");

        TestRun run = run(homework(5), Map.of("fractions_hw.py", buggy));

        assertThat(run.state()).isEqualTo(State.FAILED);
        assertThat(run.passed()).isEqualTo(1);
        assertThat(run.failed()).isEqualTo(4);
        TestResult even = result(run, "TestMedian.test_even_length");
        assertThat(even.outcome()).isEqualTo(Outcome.FAILED);
        assertThat(even.message()).contains("== 2.5");
        assertThat(result(run, "test_adds_with_different_denominators").message())
                .contains("(5, 6)");
    }

    @Test
    void aFailureInsideTheStudentsCodeNamesTheStudentsFileAndLine() throws Exception {
        String raising = CORRECT.replace(
                "    ordered = sorted(values)\n", "    ordered = sorted(values)\n    raise ValueError('not yet')\n");

        TestRun run = run(homework(5), Map.of("fractions_hw.py", raising));

        TestResult odd = result(run, "TestMedian.test_odd_length");
        assertThat(odd.outcome()).isEqualTo(Outcome.FAILED);
        assertThat(odd.message()).contains("ValueError: not yet");
        assertThat(odd.file()).isEqualTo("fractions_hw.py");
        assertThat(odd.line()).isEqualTo(10);
    }

    @Test
    void codeThatDoesNotCompileFailsEveryDeclaredTestWithTheInterpretersFirstError() throws Exception {
        String broken = CORRECT.replace("def median(values):", "def median(values)");

        TestRun run = run(homework(5), Map.of("fractions_hw.py", broken));

        assertThat(run.state()).isEqualTo(State.ERROR);
        assertThat(run.passed()).isZero();
        assertThat(run.failed()).isEqualTo(5);
        assertThat(run.total()).isEqualTo(5);
        assertThat(run.results()).allSatisfy(result -> {
            assertThat(result.outcome()).isEqualTo(Outcome.ERROR);
            assertThat(result.message()).startsWith("SyntaxError");
            assertThat(result.file()).isEqualTo("fractions_hw.py");
            assertThat(result.line()).isEqualTo(8);
        });
    }

    @Test
    void aMissingModuleFailsEveryTest() throws Exception {
        TestRun run = run(homework(5), Map.of("notes.txt", "I did not finish"));

        assertThat(run.state()).isEqualTo(State.ERROR);
        assertThat(run.failed()).isEqualTo(5);
        assertThat(run.results().getFirst().message()).contains("ModuleNotFoundError");
    }

    @Test
    void anEndlessLoopIsStoppedAtTheHomeworksTimeAndItsUnfinishedTestsFail() throws Exception {
        String endless = CORRECT.replace(
                "    ordered = sorted(values)\n", "    ordered = sorted(values)\n    while True:\n        pass\n");

        TestRun run = run(homework(2), Map.of("fractions_hw.py", endless));

        assertThat(run.state()).isEqualTo(State.TIMEOUT);
        assertThat(run.reason()).contains("2 s");
        assertThat(run.passed()).isEqualTo(3);
        assertThat(run.failed()).isEqualTo(2);
        assertThat(result(run, "TestMedian.test_odd_length").message()).contains("did not finish within 2 s");
        assertThat(run.durationMs()).isBetween(1900L, 6000L);
    }

    @Test
    void theStudentCannotAddTestsOrConfigureTheRunnerOrReplaceTheTeachersTests() throws Exception {
        Map<String, byte[]> files = new LinkedHashMap<>();
        files.put("fractions_hw.py", bytes(CORRECT.replace("a * d + c * b", "a * c + c * b")));
        // tests of the student's own would be counted beside the teacher's
        files.put("test_mine.py", bytes("def test_always():\n    assert True\n"));
        // a conftest.py could make every failure a pass
        files.put("conftest.py", bytes("""
                import pytest
                @pytest.hookimpl(hookwrapper=True)
                def pytest_runtest_makereport(item, call):
                    outcome = yield
                    outcome.get_result().outcome = "passed"
                """));
        files.put("pytest.ini", bytes("[pytest]\naddopts = -p no:junitxml\n"));
        files.put("test_fractions.py", bytes("def test_nothing():\n    assert True\n"));
        files.put("my notes.py", bytes("x = 1\n"));

        TestRun run = run(homework(5), files);

        assertThat(run.total()).isEqualTo(5);
        assertThat(run.failed()).as(run.output()).isEqualTo(3);
        assertThat(run.results()).extracting(TestResult::name).doesNotContain("test_always", "test_nothing");
        assertThat(run.output()).contains("conftest.py, pytest.ini, my notes.py");
    }

    @Test
    void withTestsSwitchedOffNothingRunsAndTheRunSaysWhy() throws Exception {
        TestRun run = runner(SandboxSettings.Mode.OFF)
                .run(homework(5), Map.of("fractions_hw.py", bytes(CORRECT)))
                .orElseThrow();

        assertThat(run.state()).isEqualTo(State.NOT_RUN);
        assertThat(run.reason()).contains("REVIEW_TESTS=off");
        assertThat(run.total()).isZero();
    }

    @Test
    void aHomeworkWithoutTestsHasNoRun() throws Exception {
        Homework withoutTests = homework(5, List.of());

        assertThat(runner.run(withoutTests, Map.of("fractions_hw.py", bytes(CORRECT))))
                .isEmpty();
    }

    @Test
    void aLongMessageIsCutToOneKibibyteAndTheOutputToFour() throws Exception {
        String noisy = CORRECT.replace(
                "    ordered = sorted(values)\n", "    print('é' * 20000)\n    raise ValueError('ü' * 5000)\n");

        TestRun run = run(homework(5), Map.of("fractions_hw.py", noisy));

        assertThat(java.util.Objects.requireNonNull(
                                result(run, "TestMedian.test_odd_length").message())
                        .getBytes(StandardCharsets.UTF_8))
                .hasSizeLessThanOrEqualTo(TestRun.MAX_MESSAGE_BYTES);
        assertThat(run.output().getBytes(StandardCharsets.UTF_8)).hasSizeLessThanOrEqualTo(TestRun.MAX_OUTPUT_BYTES);
    }

    static TestResult result(TestRun run, String name) {
        return run.results().stream()
                .filter(result -> result.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no test " + name + " in " + run));
    }

    static TestRun run(Homework homework, Map<String, ?> files) throws InterruptedException {
        Map<String, byte[]> contents = new LinkedHashMap<>();
        files.forEach(
                (name, content) -> contents.put(name, content instanceof String text ? bytes(text) : (byte[]) content));
        return runner.run(homework, contents).orElseThrow();
    }

    static Homework homework(int timeoutSeconds) {
        return homework(timeoutSeconds, List.<String[]>of(new String[] {"test_fractions.py", TESTS}));
    }

    static Homework homework(int timeoutSeconds, List<String[]> tests) {
        HomeworkId id = HomeworkId.random();
        TenantId tenant = TenantId.of(UUID.randomUUID());
        Instant now = Instant.now();
        List<HomeworkFile> files = new ArrayList<>();
        files.add(new HomeworkFile(
                UUID.randomUUID(), id, HomeworkFile.FileType.TASK, "task.md", "task.md", "Add fractions.", now, now));
        for (String[] test : tests) {
            files.add(new HomeworkFile(
                    UUID.randomUUID(), id, HomeworkFile.FileType.TEST, test[0], test[0], test[1], now, now));
        }
        Course course = new Course(UUID.randomUUID(), tenant, "t", "course", now, now);
        return new Homework(
                id,
                tenant,
                "t",
                "fractions",
                null,
                course.id(),
                now,
                now,
                files,
                course,
                Rubric.DEFAULT,
                timeoutSeconds);
    }

    static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
