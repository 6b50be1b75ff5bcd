package com.chatreview.grading;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What a homework review is made from: the assignment as the teacher published it and the student's files, all as
 * text. The grading engine grades it; the assistant's providers review it ({@code Assistant.review}).
 *
 * @param assignment the assignment's id as the teacher named it ({@code fractions-1}), or {@code null}
 * @param subject the assignment's subject, or {@code null}
 * @param task the task files: what the student was asked to do
 * @param solution the reference solution files; empty when the teacher gave none
 * @param restrictions the restriction files: rules a submission must keep
 * @param submission the student's files, in the order they were uploaded
 * @param rubric what the submission is graded against: the homework's, or {@link Rubric#DEFAULT}
 * @param tests what the homework's tests showed about the submission; {@code null} when the homework has none
 */
public record ReviewRequest(
        @Nullable String assignment,
        @Nullable String subject,
        List<ReviewDocument> task,
        List<ReviewDocument> solution,
        List<ReviewDocument> restrictions,
        List<ReviewDocument> submission,
        Rubric rubric,
        @Nullable TestEvidence tests) {

    public ReviewRequest {
        task = List.copyOf(task);
        solution = List.copyOf(solution);
        restrictions = List.copyOf(restrictions);
        submission = List.copyOf(submission);
        rubric = rubric == null ? Rubric.DEFAULT : rubric;
    }

    /** A homework without tests. */
    public ReviewRequest(
            @Nullable String assignment,
            @Nullable String subject,
            List<ReviewDocument> task,
            List<ReviewDocument> solution,
            List<ReviewDocument> restrictions,
            List<ReviewDocument> submission,
            Rubric rubric) {
        this(assignment, subject, task, solution, restrictions, submission, rubric, null);
    }

    /** A homework graded by the default rubric. */
    public ReviewRequest(
            @Nullable String assignment,
            @Nullable String subject,
            List<ReviewDocument> task,
            List<ReviewDocument> solution,
            List<ReviewDocument> restrictions,
            List<ReviewDocument> submission) {
        this(assignment, subject, task, solution, restrictions, submission, Rubric.DEFAULT, null);
    }

    /** Whether the homework's tests ran against the submission: then they grade its test-bound criteria. */
    public boolean testsRan() {
        return tests != null && tests.ran();
    }

    /** The same homework with the student's files replaced. */
    ReviewRequest withSubmission(List<ReviewDocument> files) {
        return new ReviewRequest(assignment, subject, task, solution, restrictions, files, rubric, tests);
    }

    /**
     * A file of the homework, as text.
     *
     * @param contentType the type detected from the file's bytes ({@code text/x-python}, {@code image/png}...)
     * @param text the file's text; empty when it has none or was not opened
     * @param truncated whether {@code text} stops at the size budget before the file's end
     * @param notOpened why the file's text is not there, or {@code null} when it was read
     */
    public record ReviewDocument(
            String name,
            String contentType,
            String text,
            boolean truncated,
            @Nullable String notOpened) {

        public ReviewDocument {
            text = text == null ? "" : text;
        }

        /** A file that was read in full. */
        public static ReviewDocument text(String name, String contentType, String text) {
            return new ReviewDocument(name, contentType, text, false, null);
        }

        public boolean opened() {
            return notOpened == null;
        }
    }
}
