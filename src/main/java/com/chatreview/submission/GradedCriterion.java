package com.chatreview.submission;

import com.chatreview.grading.Verdict.CriterionScore;
import org.jspecify.annotations.Nullable;

/**
 * A criterion's final points: the teacher's where they gave some, else the review's.
 *
 * @param score the points, with the review's title, explanation and findings where the review scored the criterion
 * @param comment the teacher's comment on these points; {@code null} when the review's stand or they gave none
 */
public record GradedCriterion(
        CriterionScore score, GradedBy gradedBy, @Nullable String comment) {

    /** Who gave the points. */
    public enum GradedBy {
        TEACHER,
        AI;

        public String value() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }
}
