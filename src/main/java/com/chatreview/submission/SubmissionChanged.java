package com.chatreview.submission;

import java.util.UUID;

/**
 * What happened to a submission, published in the transaction that did it (its listeners write in that
 * transaction), with the submission as it is after the change: a listener need not read it again.
 */
public sealed interface SubmissionChanged {

    Submission submission();

    default SubmissionId submissionId() {
        return submission().id();
    }

    /** The upload was stored. */
    record Created(Submission submission) implements SubmissionChanged {}

    /** The AI's analysis and grade were stored. */
    record Reviewed(Submission submission) implements SubmissionChanged {}

    /** The review failed for good (an operator may retry it). */
    record ReviewFailed(Submission submission) implements SubmissionChanged {}

    /** The teacher decided (accepted, rejected, ...). */
    record Decided(Submission submission) implements SubmissionChanged {}

    /** The student asked for a regrade. */
    record RegradeRequested(Submission submission, UUID requestId) implements SubmissionChanged {}

    /** The teacher answered a regrade request. */
    record RegradeAnswered(Submission submission, UUID requestId) implements SubmissionChanged {}
}
