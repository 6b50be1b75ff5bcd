package com.chatreview.submission;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * Points a teacher gave one criterion: they replace the review's for it, and a review that finishes later leaves them
 * as they are (docs/api.md, The teacher's grade).
 *
 * @param title the criterion's title when the points were given
 * @param maxPoints the criterion's maximum when the points were given
 * @param comment why, for the student; {@code null} for none
 * @param gradedBy the teacher as the client named them, or {@code null}
 */
public record TeacherPoints(
        String criterionId,
        String title,
        int points,
        int maxPoints,
        @Nullable String comment,
        @Nullable String gradedBy,
        Instant gradedAt) {}
