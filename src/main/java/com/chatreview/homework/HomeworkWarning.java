package com.chatreview.homework;

import com.chatreview.grading.Grader;
import java.util.ArrayList;
import java.util.List;

/**
 * Something about how a homework is set up that makes its grades weaker than the teacher may think, said when it is
 * published and each time it is read (docs/api.md, Homework tests). Never a reason to refuse it.
 *
 * @param code what it is, for a program: {@code solution_without_tests}, {@code criterion_without_tests},
 *     {@code tests_grade_no_criterion}
 * @param message what it means and what to do, for the teacher
 */
public record HomeworkWarning(String code, String message) {

    /** The warnings of a homework, in a fixed order; empty when there is nothing to say. */
    static List<HomeworkWarning> of(Homework homework) {
        List<HomeworkWarning> warnings = new ArrayList<>();
        boolean tests = !homework.tests().isEmpty();
        boolean programSolution = homework.filesOfType(HomeworkFile.FileType.SOLUTION).stream()
                .anyMatch(file -> Grader.isProgram(file.fileName()));
        if (programSolution && !tests) {
            warnings.add(new HomeworkWarning(
                    "solution_without_tests",
                    "The reference solution is a program and the homework has no test files: a submission's"
                            + " correctness can then only be estimated from its likeness to the reference, which"
                            + " earns at most 75% of the points, and a wrong program that looks like the reference"
                            + " can still pass. Add test files (fileType \"test\") to grade by what the code does."));
        }
        if (!tests && !homework.rubric().testBound().isEmpty()) {
            warnings.add(new HomeworkWarning(
                    "criterion_without_tests",
                    "The rubric says the tests grade " + ids(homework) + ", but the homework has no test files:"
                            + " those criteria are estimated instead, at most 75% of their points."));
        }
        if (tests && homework.rubric().testBound().isEmpty()) {
            warnings.add(new HomeworkWarning(
                    "tests_grade_no_criterion",
                    "The homework has tests, but no criterion of its rubric has \"tests\": true: failed tests are"
                            + " findings, and the letter is at most C while one fails, but no criterion's points"
                            + " follow from them."));
        }
        return List.copyOf(warnings);
    }

    private static String ids(Homework homework) {
        return String.join(
                ", ",
                homework.rubric().testBound().stream()
                        .map(criterion -> "'" + criterion.id() + "'")
                        .toList());
    }
}
