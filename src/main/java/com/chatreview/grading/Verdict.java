package com.chatreview.grading;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A graded homework: points per criterion of the rubric, the findings they rest on, the flags for the teacher,
 * and the letter that follows from the points. Made only by {@link Verdicts#settle}, so that the letter, the
 * points and the analysis always agree.
 *
 * @param grade {@code A} to {@code F}, from {@code points} of {@code maxPoints} ({@link Grades#letter})
 * @param summary the reviewer's own words beside the structure (Markdown), possibly empty
 * @param analysis the whole review in Markdown, written from the fields above: what the student reads
 */
public record Verdict(
        String grade,
        int points,
        int maxPoints,
        List<CriterionScore> criteria,
        List<Finding> findings,
        List<Flag> flags,
        String summary,
        String analysis) {

    public Verdict {
        criteria = List.copyOf(criteria);
        findings = List.copyOf(findings);
        flags = List.copyOf(flags);
    }

    /**
     * The points one criterion earned.
     *
     * @param findingIds the findings that explain them, in the order of {@link Verdict#findings}
     */
    public record CriterionScore(
            String criterionId, String title, int points, int maxPoints, String explanation, List<String> findingIds) {

        public CriterionScore {
            findingIds = List.copyOf(findingIds);
        }
    }

    /**
     * Something the reviewer found in the work.
     *
     * @param file the student's file, or {@code null} for a finding about the whole submission
     * @param line 1-based first line, or {@code null} with {@code file} null or for a whole file
     * @param endLine the last line, {@code line} for a single one
     * @param quote the student's text at those lines, verbatim from the stored file (at most
     *     {@value Verdicts#MAX_QUOTE} characters), or {@code null} without a line
     */
    public record Finding(
            String id,
            String criterionId,
            Severity severity,
            @Nullable String file,
            @Nullable Integer line,
            @Nullable Integer endLine,
            @Nullable String quote,
            String message) {

        /** The same finding under this id. */
        public Finding withId(String findingId) {
            return new Finding(findingId, criterionId, severity, file, line, endLine, quote, message);
        }
    }

    /** How much a finding weighs, lightest first. */
    public enum Severity {
        INFO,
        MINOR,
        MAJOR,
        CRITICAL;

        /** The form of the interface: {@code info}, {@code minor}, {@code major}, {@code critical}. */
        @com.fasterxml.jackson.annotation.JsonValue
        public String value() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }

        /** The severity of {@link #value()}'s form, or {@code null} for any other text. */
        @com.fasterxml.jackson.annotation.JsonCreator
        public static @Nullable Severity of(@Nullable String value) {
            for (Severity severity : values()) {
                if (severity.value().equals(value)) {
                    return severity;
                }
            }
            return null;
        }
    }

    /**
     * Something the teacher should know that is not a matter of points.
     *
     * @param kind {@link #ADDRESSED_TO_GRADER}, {@link #NO_READABLE_WORK}, {@link #UNREADABLE_FILE},
     *     {@link #NOT_ASSESSED}, {@link #TESTS_NOT_RUN} or {@link #CORRECTNESS_UNVERIFIED}
     * @param file the student's file it is about, or {@code null}
     * @param line 1-based, or {@code null}
     */
    public record Flag(
            String kind, @Nullable String file, @Nullable Integer line, String message) {

        /** Text in the student's files that speaks to the reviewer instead of being part of the work. */
        public static final String ADDRESSED_TO_GRADER = "addressed_to_grader";
        /** No file of the submission has text the reviewer could read: 0 points everywhere. */
        public static final String NO_READABLE_WORK = "no_readable_work";
        /** A file the reviewer could not open (an image, a broken document...). */
        public static final String UNREADABLE_FILE = "unreadable_file";
        /** A criterion the reviewer had nothing to judge by: the teacher's reading decides it. */
        public static final String NOT_ASSESSED = "criterion_not_assessed";
        /** The homework has tests, and they could not run (tests off, no sandbox on the node): the message says why. */
        public static final String TESTS_NOT_RUN = "tests_not_run";
        /**
         * Nothing ran the work: its correctness is an estimate from its resemblance to the reference, capped at
         * {@link Verdicts#UNVERIFIED_CEILING} of the criterion's points.
         */
        public static final String CORRECTNESS_UNVERIFIED = "correctness_unverified";
    }
}
