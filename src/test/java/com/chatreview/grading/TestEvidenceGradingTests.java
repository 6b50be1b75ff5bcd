package com.chatreview.grading;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.grading.ReviewRequest.ReviewDocument;
import com.chatreview.grading.TestEvidence.FailedTest;
import com.chatreview.grading.Verdict.CriterionScore;
import com.chatreview.grading.Verdict.Finding;
import com.chatreview.grading.Verdict.Flag;
import com.chatreview.grading.Verdict.Severity;
import com.chatreview.grading.Verdicts.Proposal;
import com.chatreview.grading.Verdicts.Score;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * The teacher's tests grade the criteria bound to them, whatever a reviewer proposes (docs/decisions.md, Homework
 * tests): points in proportion to the tests passed, a finding per failed test on the student's line, the flag when
 * they could not run.
 */
class TestEvidenceGradingTests {

    static final String REFERENCE = """
            from math import gcd

            def add_fractions(a, b, c, d):
                top, bottom = a * d + c * b, b * d
                return top // gcd(top, bottom), bottom // gcd(top, bottom)
            """;
    /** The reference with one bug: it reads the same to a resemblance measure. */
    static final String SUBTLY_WRONG = REFERENCE.replace("a * d + c * b", "a * c + c * b");

    static final Grader GRADER = new Grader();

    @Test
    void aSubtlyWrongCopyOfTheReferenceGetsWhatTheTestsGiveNotAnA() {
        TestEvidence tests = new TestEvidence(
                true,
                0,
                3,
                List.of(
                        new FailedTest("test_common_denominator", "assert (10, 16) == (3, 4)", null, null),
                        new FailedTest("test_different_denominators", "assert (1, 2) == (5, 6)", null, null),
                        new FailedTest("test_lowest_terms", "assert (5, 16) == (1, 2)", null, null)),
                null);

        Verdict verdict = GRADER.review(request(SUBTLY_WRONG, tests));

        CriterionScore correctness = verdict.criteria().getFirst();
        assertThat(correctness.points()).isZero();
        assertThat(correctness.explanation()).startsWith("0 of 3 of the teacher's tests pass");
        assertThat(verdict.grade()).isEqualTo("F");
        assertThat(verdict.findings())
                .filteredOn(finding -> finding.message().startsWith("The test "))
                .hasSize(3)
                .allSatisfy(finding -> {
                    assertThat(finding.severity()).as("no test passed").isEqualTo(Severity.CRITICAL);
                    assertThat(finding.criterionId()).isEqualTo("correctness");
                });
        assertThat(verdict.analysis())
                .contains("## Tests", "0 of 3 of the teacher's tests pass", "`test_lowest_terms` fails: assert (5, 16)")
                .doesNotContain("similar to the reference", "3-grams");
    }

    @Test
    void aCorrectSubmissionWrittenOtherwiseGetsEveryPointOfTheTests() {
        String otherwise = """
                import fractions

                def add_fractions(a, b, c, d):
                    result = fractions.Fraction(a, b) + fractions.Fraction(c, d)
                    return result.numerator, result.denominator
                """;

        Verdict verdict = GRADER.review(request(otherwise, new TestEvidence(true, 3, 3, List.of(), null)));

        assertThat(verdict.criteria().getFirst().points()).isEqualTo(60);
        assertThat(verdict.criteria().getFirst().explanation()).isEqualTo("All 3 of the teacher's tests pass.");
        assertThat(verdict.findings())
                .noneMatch(finding -> finding.criterionId().equals("correctness"));
    }

    @Test
    void pointsAreInProportionToTheTestsPassedWhateverTheReviewerProposes() {
        TestEvidence tests = new TestEvidence(
                true,
                2,
                3,
                List.of(new FailedTest(
                        "test_lowest_terms", "assert (8, 16) == (1, 2)\n  At index 0 diff: 8 != 1", null, null)),
                null);

        Verdict verdict = Verdicts.settle(
                        request(REFERENCE, tests),
                        new Proposal(
                                List.of(
                                        new Score("correctness", 60, "Looks perfect."),
                                        new Score("restrictions", 25, "."),
                                        new Score("completeness", 15, ".")),
                                List.of(),
                                List.of(),
                                "",
                                ""))
                .verdict();

        assertThat(verdict.criteria().getFirst().points()).isEqualTo(40);
        assertThat(verdict.criteria().getFirst().explanation())
                .isEqualTo("2 of 3 of the teacher's tests pass: the points are in proportion. Looks perfect.");
        Finding failed = verdict.findings().getFirst();
        assertThat(failed.message()).isEqualTo("The test `test_lowest_terms` fails: assert (8, 16) == (1, 2)");
        assertThat(failed.severity()).isEqualTo(Severity.MAJOR);
        assertThat(failed.file()).isNull();
        assertThat(verdict.points()).as("40 + 25 + 15: a B by the points").isEqualTo(80);
        assertThat(verdict.grade()).as("at most C while a test fails").isEqualTo("C");
        assertThat(verdict.analysis()).contains("while one of the teacher's tests fails, it is at most C");
    }

    @Test
    void aFailedTestWhoseTraceNamesAStudentsLineIsAFindingThereWithTheLineQuoted() {
        String raising = REFERENCE.replace("    top, bottom", "    raise ValueError('later')\n    top, bottom");
        TestEvidence tests = new TestEvidence(
                true,
                0,
                1,
                List.of(
                        new FailedTest("test_lowest_terms", "ValueError: later", "fractions_hw.py", 4),
                        // a line the submission does not have: the finding is about the whole submission
                        new FailedTest("test_other", "ValueError: later", "fractions_hw.py", 400)),
                null);

        Verdict verdict = Verdicts.settle(
                        request(raising, tests), new Proposal(List.of(), List.of(), List.of(), "", ""))
                .verdict();

        assertThat(verdict.findings()).hasSize(2);
        Finding onTheLine = verdict.findings().stream()
                .filter(finding -> finding.line() != null)
                .findFirst()
                .orElseThrow();
        assertThat(onTheLine.file()).isEqualTo("fractions_hw.py");
        assertThat(onTheLine.line()).isEqualTo(4);
        assertThat(onTheLine.quote()).isEqualTo("    raise ValueError('later')");
        assertThat(verdict.findings())
                .anySatisfy(finding -> assertThat(finding.file()).isNull());
    }

    @Test
    void testsThatCouldNotRunCapTheirCriteriaAndFlagWhy() {
        Verdict verdict =
                GRADER.review(request(REFERENCE, TestEvidence.notRun("the sandbox cannot run here: no bwrap")));

        CriterionScore correctness = verdict.criteria().getFirst();
        assertThat(correctness.points()).isLessThanOrEqualTo(45);
        assertThat(correctness.explanation()).contains("tests could not run", "at most 75%");
        assertThat(verdict.flags()).extracting(Flag::kind).contains(Flag.TESTS_NOT_RUN);
        assertThat(verdict.flags().stream()
                        .filter(flag -> flag.kind().equals(Flag.TESTS_NOT_RUN))
                        .findFirst())
                .hasValueSatisfying(flag -> assertThat(flag.message()).contains("no bwrap"));
        assertThat(verdict.analysis()).contains("## Tests", "were not run: the sandbox cannot run here");
    }

    @Test
    void aTeachersRubricBindsOnlyTheCriteriaItMarks() {
        Rubric rubric = new Rubric(List.of(
                new Rubric.Criterion("works", "It works", null, 8, true),
                new Rubric.Criterion("style", "Readable", null, 2)));
        ReviewRequest request = new ReviewRequest(
                "fractions",
                null,
                List.of(),
                List.of(),
                List.of(),
                List.of(ReviewDocument.text("fractions_hw.py", "text/x-python", REFERENCE)),
                rubric,
                new TestEvidence(true, 1, 4, List.of(), null));

        Verdict verdict = Verdicts.settle(
                        request,
                        new Proposal(
                                List.of(new Score("works", 8, "."), new Score("style", 2, ".")),
                                List.of(),
                                List.of(),
                                "",
                                ""))
                .verdict();

        assertThat(verdict.criteria()).extracting(CriterionScore::points).containsExactly(2, 2);
    }

    @Test
    void manyFailedTestsAreCountedInOneMoreFinding() {
        List<FailedTest> failures = new java.util.ArrayList<>();
        for (int i = 0; i < 30; i++) {
            failures.add(new FailedTest("test_" + i, "assert False", null, null));
        }

        Verdict verdict = Verdicts.settle(
                        request(REFERENCE, new TestEvidence(true, 0, 30, failures, null)),
                        new Proposal(List.of(), List.of(), List.of(), "", ""))
                .verdict();

        assertThat(verdict.findings()).hasSize(Verdicts.MAX_TEST_FINDINGS + 1);
        assertThat(verdict.findings().getLast().message()).startsWith("10 more of the teacher's tests fail");
    }

    static ReviewRequest request(String code, @Nullable TestEvidence tests) {
        return new ReviewRequest(
                "fractions",
                null,
                List.of(ReviewDocument.text("task.md", "text/markdown", "Write add_fractions(a, b, c, d).")),
                List.of(ReviewDocument.text("solution.py", "text/x-python", REFERENCE)),
                List.of(),
                List.of(ReviewDocument.text("fractions_hw.py", "text/x-python", code)),
                Rubric.DEFAULT_WITH_TESTS,
                tests);
    }
}
