package com.chatreview.testrun;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.homework.Homework;
import com.chatreview.sandbox.RequiresSandbox;
import com.chatreview.testrun.TestRun.Outcome;
import com.chatreview.testrun.TestRun.State;
import com.chatreview.testrun.TestRun.TestResult;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Java (JUnit 5 with the console launcher) and JavaScript ({@code node --test}) homework tests, run in the sandbox
 * as Python's are ({@link TestRunnerTests}): correct work passes, wrong work fails with the message, work that does
 * not compile or load fails every test with the first error line on the student's line.
 */
@Tag("sandbox")
@ExtendWith(RequiresSandbox.class)
class JavaAndJavaScriptTestRunTests {

    static final String JAVA_TESTS = """
            import static org.junit.jupiter.api.Assertions.assertArrayEquals;

            import org.junit.jupiter.api.Test;

            class FractionsTest {

                @Test
                void addsWithACommonDenominator() {
                    assertArrayEquals(new int[] {3, 4}, Fractions.add(1, 4, 2, 4));
                }

                @Test
                void addsWithDifferentDenominators() {
                    assertArrayEquals(new int[] {5, 6}, Fractions.add(1, 2, 1, 3));
                }
            }
            """;
    static final String JAVA_CORRECT = """
            public class Fractions {
                public static int[] add(int a, int b, int c, int d) {
                    int top = a * d + c * b, bottom = b * d, gcd = gcd(top, bottom);
                    return new int[] {top / gcd, bottom / gcd};
                }

                static int gcd(int a, int b) {
                    return b == 0 ? a : gcd(b, a % b);
                }
            }
            """;

    static final String JS_TESTS = """
            const test = require('node:test');
            const assert = require('node:assert');
            const { add } = require('./fractions');

            test('adds with a common denominator', () => {
              assert.deepStrictEqual(add(1, 4, 2, 4), [3, 4]);
            });

            test('adds with different denominators', () => {
              assert.deepStrictEqual(add(1, 2, 1, 3), [5, 6]);
            });
            """;
    static final String JS_CORRECT = """
            function gcd(a, b) { return b === 0 ? a : gcd(b, a % b); }
            function add(a, b, c, d) {
              const top = a * d + c * b, bottom = b * d, g = gcd(top, bottom);
              return [top / g, bottom / g];
            }
            module.exports = { add };
            """;

    @BeforeAll
    static void aRunner() throws Exception {
        TestRunnerTests.aRunner();
    }

    @Test
    void javaWorkThatIsRightPassesAndWorkThatIsWrongFailsWithTheAssertionsMessage() throws Exception {
        TestRun right = run(java(), Map.of("Fractions.java", JAVA_CORRECT));
        assertThat(right.state()).as(right.output()).isEqualTo(State.PASSED);
        assertThat(right.results())
                .extracting(TestResult::name)
                .containsExactly(
                        "FractionsTest.addsWithACommonDenominator()", "FractionsTest.addsWithDifferentDenominators()");

        TestRun wrong = run(java(), Map.of("Fractions.java", JAVA_CORRECT.replace("a * d + c * b", "a * c + c * b")));
        assertThat(wrong.state()).as(wrong.output()).isEqualTo(State.FAILED);
        assertThat(wrong.failed()).isEqualTo(2);
        assertThat(wrong.results().getFirst().message()).contains("array contents differ");
    }

    @Test
    void javaThatDoesNotCompileFailsEveryTestWithTheCompilersFirstErrorOnTheStudentsLine() throws Exception {
        TestRun broken = run(java(), Map.of("Fractions.java", JAVA_CORRECT.replace("bottom / gcd};", "bottom / gcd}")));

        assertThat(broken.state()).as(broken.output()).isEqualTo(State.ERROR);
        assertThat(broken.total()).isEqualTo(2);
        assertThat(broken.results()).allSatisfy(result -> {
            assertThat(result.outcome()).isEqualTo(Outcome.ERROR);
            assertThat(result.message()).startsWith("Fractions.java:4: error: ");
            assertThat(result.file()).isEqualTo("Fractions.java");
            assertThat(result.line()).isEqualTo(4);
        });
    }

    @Test
    void anExceptionInTheStudentsJavaPointsToItsLine() throws Exception {
        TestRun thrown = run(
                java(),
                Map.of(
                        "Fractions.java",
                        JAVA_CORRECT.replace(
                                "        int top",
                                "        if (a > 0) throw new IllegalStateException(\"later\");\n        int top")));

        assertThat(thrown.results()).allSatisfy(result -> {
            assertThat(result.outcome()).isIn(Outcome.ERROR, Outcome.FAILED);
            assertThat(result.message()).contains("later");
            assertThat(result.file()).isEqualTo("Fractions.java");
            assertThat(result.line()).isEqualTo(3);
        });
    }

    @Test
    void aStudentsOwnJavaTestIsNotRunAndAForgedReportIsNotRead() throws Exception {
        Map<String, Object> files = new LinkedHashMap<>();
        files.put("Fractions.java", "public class Fractions { }");
        files.put("MineTest.java", "class MineTest { @org.junit.jupiter.api.Test void passes() { } }");
        files.put(
                "TEST-junit-jupiter.xml",
                "<testsuite><testcase classname=\"FractionsTest\" name=\"forged()\"/></testsuite>");

        TestRun run = run(java(), files);

        assertThat(run.passed()).isZero();
        assertThat(run.results())
                .extracting(TestResult::name)
                .doesNotContain("MineTest.passes()", "FractionsTest.forged()");
    }

    @Test
    void javaScriptWorkIsTestedByNodesRunner() throws Exception {
        TestRun right = run(javaScript(), Map.of("fractions.js", JS_CORRECT));
        assertThat(right.state()).as(right.output()).isEqualTo(State.PASSED);
        assertThat(right.results())
                .extracting(TestResult::name)
                .containsExactly("adds with a common denominator", "adds with different denominators");

        TestRun wrong = run(javaScript(), Map.of("fractions.js", JS_CORRECT.replace("a * d + c * b", "a * c + c * b")));
        assertThat(wrong.state()).isEqualTo(State.FAILED);
        assertThat(wrong.failed()).isEqualTo(2);
        assertThat(wrong.results().getFirst().message()).contains("strictly deep-equal");
    }

    @Test
    void javaScriptThatDoesNotLoadFailsEveryTestWithItsSyntaxError() throws Exception {
        TestRun broken = run(javaScript(), Map.of("fractions.js", JS_CORRECT.replace("bottom / g];", "bottom / g;")));

        assertThat(broken.state()).as(broken.output()).isEqualTo(State.ERROR);
        assertThat(broken.total()).isEqualTo(2);
        assertThat(broken.results()).allSatisfy(result -> {
            assertThat(result.outcome()).isEqualTo(Outcome.ERROR);
            assertThat(result.message()).startsWith("SyntaxError");
            assertThat(result.file()).isEqualTo("fractions.js");
        });
    }

    @Test
    void anEsModuleIsLoadedWithoutThePackageJsonTheStudentSent() throws Exception {
        Map<String, Object> files = new LinkedHashMap<>();
        files.put("fractions.js", JS_CORRECT.replace("module.exports = { add };", "export { add };"));
        files.put("package.json", "{\"type\": \"commonjs\", \"scripts\": {\"test\": \"echo pass\"}}");
        Homework esm = TestRunnerTests.homework(10, List.<String[]>of(new String[] {
            "fractions.test.mjs",
            "import test from 'node:test';\nimport assert from 'node:assert';\nimport { add } from './fractions.js';\n"
                    + "test('adds', () => { assert.deepStrictEqual(add(1, 2, 1, 3), [5, 6]); });\n"
        }));

        TestRun run = run(esm, files);

        assertThat(run.state()).as(run.output()).isEqualTo(State.PASSED);
        assertThat(run.output()).contains("Left out of the run", "package.json");
    }

    static Homework java() {
        return TestRunnerTests.homework(30, List.<String[]>of(new String[] {"FractionsTest.java", JAVA_TESTS}));
    }

    static Homework javaScript() {
        return TestRunnerTests.homework(10, List.<String[]>of(new String[] {"fractions.test.js", JS_TESTS}));
    }

    static TestRun run(Homework homework, Map<String, ?> files) throws InterruptedException {
        return TestRunnerTests.run(homework, files);
    }
}
