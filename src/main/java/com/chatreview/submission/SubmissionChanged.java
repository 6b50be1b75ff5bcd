package com.chatreview.submission;

import java.util.UUID;

/**
 * What happened to a submission, published in the transaction that did it (its listeners write in that
 * transaction).
 */
public sealed interface SubmissionChanged {

    UUID submissionId();

    /** The upload was stored. */
    record Created(UUID submissionId) implements SubmissionChanged {}

    /** The AI's analysis and grade were stored. */
    record Reviewed(UUID submissionId) implements SubmissionChanged {}

    /** The review failed for good (an operator may retry it). */
    record ReviewFailed(UUID submissionId) implements SubmissionChanged {}

    /** The teacher decided (accepted, rejected, ...). */
    record Decided(UUID submissionId) implements SubmissionChanged {}
}
