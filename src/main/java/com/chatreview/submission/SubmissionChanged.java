package com.chatreview.submission;

/**
 * What happened to a submission, published in the transaction that did it (its listeners write in that
 * transaction).
 */
public sealed interface SubmissionChanged {

    SubmissionId submissionId();

    /** The upload was stored. */
    record Created(SubmissionId submissionId) implements SubmissionChanged {}

    /** The AI's analysis and grade were stored. */
    record Reviewed(SubmissionId submissionId) implements SubmissionChanged {}

    /** The review failed for good (an operator may retry it). */
    record ReviewFailed(SubmissionId submissionId) implements SubmissionChanged {}

    /** The teacher decided (accepted, rejected, ...). */
    record Decided(SubmissionId submissionId) implements SubmissionChanged {}
}
