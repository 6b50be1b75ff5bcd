package com.chatreview.submission;

import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A teacher's decision on a submission, as the audit trail keeps it: the status it set and what it changed.
 *
 * @param decidedBy the teacher as the client named them, or {@code null}
 * @param changedPoints the criteria whose points (or the teacher's comment on them) it changed
 * @param comment the comment on the whole it set, or {@code null} when it left that as it was
 */
public record Decision(
        SubmissionStatus from,
        SubmissionStatus to,
        @Nullable String decidedBy,
        Instant decidedAt,
        List<PointsChange> changedPoints,
        @Nullable String comment) {

    public Decision {
        changedPoints = List.copyOf(changedPoints);
    }

    /**
     * One criterion's points as a decision changed them.
     *
     * @param fromPoints the final points before (the review's or an earlier decision's); {@code null} when the
     *     criterion had none (the review was still to come)
     */
    public record PointsChange(
            String criterionId,
            @Nullable Integer fromPoints,
            int points,
            @Nullable String comment) {}
}
