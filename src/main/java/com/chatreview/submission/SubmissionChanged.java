package com.chatreview.submission;

import java.util.UUID;

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

    /** The student asked for a regrade. */
    record RegradeRequested(SubmissionId submissionId, UUID requestId) implements SubmissionChanged {}

    /** The teacher answered a regrade request. */
    record RegradeAnswered(SubmissionId submissionId, UUID requestId) implements SubmissionChanged {}
}
