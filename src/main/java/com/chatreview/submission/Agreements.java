package com.chatreview.submission;

import com.chatreview.grading.Rubric;
import com.chatreview.grading.Verdict.CriterionScore;
import com.chatreview.homework.Homework;
import com.chatreview.homework.HomeworkCatalog;
import com.chatreview.homework.HomeworkId;
import com.chatreview.tenancy.TenantId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import org.springframework.stereotype.Service;

/** Where a homework's AI grades differ from its teacher's (docs/api.md, Agreement). */
@Service
public class Agreements {

    private final Submissions submissions;
    private final HomeworkCatalog homeworks;

    Agreements(Submissions submissions, HomeworkCatalog homeworks) {
        this.submissions = submissions;
        this.homeworks = homeworks;
    }

    /** Reads the decided submissions a page at a time; what it keeps is a few numbers and five per criterion. */
    public Agreement of(TenantId tenantId, HomeworkId homeworkId) {
        Homework homework = homeworks.homework(tenantId, homeworkId);
        Map<String, Tally> tallies = new LinkedHashMap<>();
        for (Rubric.Criterion criterion : homework.rubric().criteria()) {
            tallies.put(criterion.id(), new Tally(criterion.id(), criterion.title(), criterion.maxPoints()));
        }
        int[] decided = new int[1];
        int[] kept = new int[1];
        submissions.forEachDecidedAfterReview(tenantId.value(), homeworkId, decision -> {
            decided[0]++;
            List<GradedCriterion> criteria = Submission.criteria(decision.aiCriteria(), decision.teacherPoints());
            if (Submission.grade(
                            decision.aiGrade(),
                            criteria,
                            !decision.teacherPoints().isEmpty())
                    .equals(decision.aiGrade())) {
                kept[0]++;
            }
            Map<String, Integer> ai = new LinkedHashMap<>();
            for (CriterionScore score : decision.aiCriteria()) {
                ai.put(score.criterionId(), score.points());
            }
            for (GradedCriterion criterion : criteria) {
                Integer reviewed = ai.get(criterion.score().criterionId());
                if (reviewed == null) {
                    continue;
                }
                tallies.computeIfAbsent(
                                criterion.score().criterionId(),
                                id -> new Tally(
                                        id,
                                        criterion.score().title(),
                                        criterion.score().maxPoints()))
                        .add(
                                decision.submissionId(),
                                decision.studentId(),
                                reviewed,
                                criterion.score().points());
            }
        });
        return new Agreement(
                homeworkId,
                decided[0],
                kept[0],
                decided[0] == 0 ? null : kept[0] / (double) decided[0],
                tallies.values().stream().map(Tally::agreement).toList());
    }

    /** A decided submission as the agreement reads it. */
    record DecidedSubmission(
            SubmissionId submissionId,
            String studentId,
            String aiGrade,
            List<CriterionScore> aiCriteria,
            List<TeacherPoints> teacherPoints) {}

    private static final class Tally {

        private static final Comparator<Agreement.Difference> SIZE = Comparator.comparingInt(
                        (Agreement.Difference d) -> Math.abs(d.difference()))
                .thenComparing(d -> d.submissionId().toString(), Comparator.reverseOrder());

        private final String criterionId;
        private final String title;
        private final int maxPoints;
        private int decided;
        private int changed;
        private long absoluteDifferences;
        // the smallest of the largest on top, so that a larger one replaces it
        private final PriorityQueue<Agreement.Difference> largest = new PriorityQueue<>(SIZE);

        Tally(String criterionId, String title, int maxPoints) {
            this.criterionId = criterionId;
            this.title = title;
            this.maxPoints = maxPoints;
        }

        void add(SubmissionId submission, String studentId, int aiPoints, int points) {
            decided++;
            int difference = points - aiPoints;
            if (difference == 0) {
                return;
            }
            changed++;
            absoluteDifferences += Math.abs(difference);
            largest.add(new Agreement.Difference(submission, studentId, aiPoints, points, difference));
            if (largest.size() > Agreement.LARGEST) {
                largest.poll();
            }
        }

        Agreement.CriterionAgreement agreement() {
            List<Agreement.Difference> differences = new ArrayList<>(largest);
            differences.sort(SIZE.reversed());
            return new Agreement.CriterionAgreement(
                    criterionId,
                    title,
                    maxPoints,
                    decided,
                    changed,
                    decided == 0 ? null : absoluteDifferences / (double) decided,
                    differences);
        }
    }
}
