package com.chatreview.grading;

import java.util.List;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * What a homework is graded against: criteria, each worth some points. The letter follows from the share of the
 * total a submission earns ({@link Grades#letter}); no reviewer sets it directly.
 *
 * @param criteria 1 to {@value #MAX_CRITERIA}, ids unique
 */
public record Rubric(List<Criterion> criteria) {

    public static final int MAX_CRITERIA = 20;
    public static final int MAX_POINTS = 100;
    public static final int MAX_TITLE = 200;
    public static final int MAX_DESCRIPTION = 2000;
    public static final Pattern ID = Pattern.compile("[a-z0-9_-]{1,40}");

    /** The rubric of a homework its teacher gave none: {@code docs/review-rubric.md} explains each criterion. */
    public static final Rubric DEFAULT = new Rubric(List.of(
            new Criterion(
                    "correctness",
                    "Solves the task",
                    "The work does what the task asks: it comes close to the reference solution, or, without one,"
                            + " it deals with what the task names.",
                    60),
            new Criterion(
                    "restrictions",
                    "Keeps the rules",
                    "The work keeps every rule of the restriction files: nothing forbidden used, everything required"
                            + " there.",
                    25),
            new Criterion(
                    "completeness",
                    "Hands in what was asked",
                    "Every file the task names is handed in and not empty.",
                    15)));

    /**
     * The default rubric of a homework with tests: its correctness is what the teacher's tests say (points in
     * proportion to the tests passed), the rest as in {@link #DEFAULT}.
     */
    public static final Rubric DEFAULT_WITH_TESTS = new Rubric(List.of(
            new Criterion(
                    "correctness",
                    "Solves the task",
                    "The work passes the teacher's tests: the points are in proportion to the tests passed.",
                    60,
                    true),
            DEFAULT.criteria().get(1),
            DEFAULT.criteria().get(2)));

    public Rubric {
        criteria = List.copyOf(criteria);
        if (criteria.isEmpty()) {
            throw new IllegalArgumentException("a rubric has at least one criterion");
        }
    }

    public int totalPoints() {
        return criteria.stream().mapToInt(Criterion::maxPoints).sum();
    }

    /** The criteria the homework's tests grade. */
    public List<Criterion> testBound() {
        return criteria.stream().filter(Criterion::tests).toList();
    }

    /**
     * One thing a submission is graded on.
     *
     * @param description what earns the points, or {@code null}
     * @param tests whether the homework's tests grade it: {@code maxPoints × passed / total}, whatever a reviewer says
     */
    public record Criterion(
            String id, String title, @Nullable String description, int maxPoints, boolean tests) {

        /** A criterion the tests do not grade. */
        public Criterion(String id, String title, @Nullable String description, int maxPoints) {
            this(id, title, description, maxPoints, false);
        }
    }
}
