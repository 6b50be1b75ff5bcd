package com.chatreview.submission;

import com.chatreview.homework.HomeworkId;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * How the AI's grades of a homework compare with its teacher's (docs/api.md, Agreement), over the submissions the
 * teacher decided on after the review graded them: the only ones where both can be compared.
 *
 * @param decidedSubmissions how many there are
 * @param lettersKept how many of them kept the review's letter
 * @param lettersKeptShare {@code lettersKept / decidedSubmissions}, null when there are none
 * @param criteria per criterion of the rubric, in its order
 */
public record Agreement(
        HomeworkId homeworkId,
        int decidedSubmissions,
        int lettersKept,
        @Nullable Double lettersKeptShare,
        List<CriterionAgreement> criteria) {

    /** The most differing submissions a criterion lists. */
    public static final int LARGEST = 5;

    public Agreement {
        criteria = List.copyOf(criteria);
    }

    /**
     * One criterion's agreement.
     *
     * @param decidedSubmissions the decided submissions the review graded on this criterion
     * @param changedByTeacher how many of them the teacher gave other points
     * @param meanAbsoluteDifference the mean of |teacher's - review's| points over them (0 where the teacher kept
     *     the review's), null when there are none
     * @param largestDifferences the {@value #LARGEST} with the largest differences, largest first (none of 0)
     */
    public record CriterionAgreement(
            String criterionId,
            String title,
            int maxPoints,
            int decidedSubmissions,
            int changedByTeacher,
            @Nullable Double meanAbsoluteDifference,
            List<Difference> largestDifferences) {

        public CriterionAgreement {
            largestDifferences = List.copyOf(largestDifferences);
        }
    }

    /** A submission whose points for a criterion the teacher changed: {@code difference} is teacher's - review's. */
    public record Difference(
            SubmissionId submissionId, String studentId, int aiPoints, int teacherPoints, int difference) {}
}
