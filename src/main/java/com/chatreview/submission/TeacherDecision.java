package com.chatreview.submission;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What a teacher decides on a submission (docs/api.md, The teacher's grade).
 *
 * @param status {@code approved} or {@code needs_revision}
 * @param teacherId the teacher, as the client names them, or {@code null}
 * @param criteria points for some criteria, each replacing the review's (and any earlier decision's) for it
 * @param comment the teacher's comment on the whole, or {@code null} to leave it as it is
 */
public record TeacherDecision(
        SubmissionStatus status,
        @Nullable String teacherId,
        List<GivenPoints> criteria,
        @Nullable String comment) {

    public static final int MAX_COMMENT = 4_000;

    public TeacherDecision {
        criteria = List.copyOf(criteria);
    }

    /** A decision that sets the status and nothing else. */
    public static TeacherDecision status(SubmissionStatus status, @Nullable String teacherId) {
        return new TeacherDecision(status, teacherId, List.of(), null);
    }

    /** Points for one criterion, with the teacher's comment on them ({@code null} for none). */
    public record GivenPoints(
            String criterionId, int points, @Nullable String comment) {}
}
