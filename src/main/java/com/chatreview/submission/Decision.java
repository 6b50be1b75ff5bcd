package com.chatreview.submission;

import java.time.Instant;

/**
 * A teacher's decision on a submission, as the audit trail keeps it.
 *
 * @param decidedBy the teacher as the client named them, or {@code null}
 */
public record Decision(SubmissionStatus from, SubmissionStatus to, String decidedBy, Instant decidedAt) {}
