package com.chatreview.submission;

import com.chatreview.chat.ChatId;
import com.chatreview.grading.Grades;
import com.chatreview.grading.Verdict.CriterionScore;
import com.chatreview.homework.HomeworkId;
import com.chatreview.tenancy.TenantId;
import com.chatreview.testrun.TestRun;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A submission as stored.
 *
 * @param analysis the AI's review, empty until there is one (or why the review failed)
 * @param aiGrade A to F as the review graded, empty until it has; never changed by the teacher ({@link #grade()} is
 *     the final one)
 * @param outcome the review's criteria, findings and flags, empty until there is a review; never changed by the
 *     teacher ({@link #criteria()} are the final points)
 * @param tests what the homework's tests came to against the files; {@code null} when the homework has none, or
 *     before they ran
 * @param teacherPoints the points the teacher gave, a criterion each, in the rubric's order
 * @param comment the teacher's comment on the whole, or {@code null}
 * @param decisions the teacher's decisions, oldest first
 * @param regradeRequests the student's regrade requests, oldest first
 */
public record Submission(
        SubmissionId id,
        TenantId tenantId,
        HomeworkId homeworkId,
        String studentId,
        ChatId chatId,
        SubmissionStatus status,
        String analysis,
        String aiGrade,
        ReviewOutcome outcome,
        @Nullable TestRun tests,
        Instant createdAt,
        Instant updatedAt,
        List<SubmittedFile> files,
        ReviewProgress review,
        List<TeacherPoints> teacherPoints,
        @Nullable String comment,
        List<Decision> decisions,
        List<RegradeRequest> regradeRequests) {

    public Submission {
        files = List.copyOf(files);
        teacherPoints = List.copyOf(teacherPoints);
        decisions = List.copyOf(decisions);
        regradeRequests = List.copyOf(regradeRequests);
    }

    /**
     * The final points per criterion: the teacher's where they gave some, else the review's, in the review's order
     * (criteria the teacher graded before the review came, in the rubric's).
     */
    public List<GradedCriterion> criteria() {
        return criteria(outcome.criteria(), teacherPoints);
    }

    /** The final points of these criteria: the teacher's where they gave some, else the review's. */
    static List<GradedCriterion> criteria(List<CriterionScore> reviewed, List<TeacherPoints> teacherPoints) {
        Map<String, TeacherPoints> given = new LinkedHashMap<>();
        teacherPoints.forEach(points -> given.put(points.criterionId(), points));
        List<GradedCriterion> criteria = new ArrayList<>();
        for (CriterionScore score : reviewed) {
            TeacherPoints teacher = given.remove(score.criterionId());
            criteria.add(
                    teacher == null
                            ? new GradedCriterion(score, GradedCriterion.GradedBy.AI, null)
                            : new GradedCriterion(
                                    new CriterionScore(
                                            score.criterionId(),
                                            score.title(),
                                            teacher.points(),
                                            score.maxPoints(),
                                            score.explanation(),
                                            score.findingIds()),
                                    GradedCriterion.GradedBy.TEACHER,
                                    teacher.comment()));
        }
        for (TeacherPoints teacher : given.values()) {
            criteria.add(new GradedCriterion(
                    new CriterionScore(
                            teacher.criterionId(),
                            teacher.title(),
                            teacher.points(),
                            teacher.maxPoints(),
                            "",
                            List.of()),
                    GradedCriterion.GradedBy.TEACHER,
                    teacher.comment()));
        }
        return criteria;
    }

    /**
     * The final letter: the review's until the teacher gives points, then the letter of the final points (without the
     * caps the review puts on its own letter, a failing test's: the teacher's points are the teacher's word).
     */
    public String grade() {
        return grade(aiGrade, criteria(), !teacherPoints.isEmpty());
    }

    static String grade(String aiGrade, List<GradedCriterion> criteria, boolean teacherGaveAny) {
        if (!teacherGaveAny) {
            return aiGrade;
        }
        int total = criteria.stream().mapToInt(c -> c.score().maxPoints()).sum();
        int points = criteria.stream().mapToInt(c -> c.score().points()).sum();
        return total <= 0 ? aiGrade : Grades.letter(points, total);
    }

    /** The final points, all criteria together. */
    public int points() {
        return criteria().stream().mapToInt(c -> c.score().points()).sum();
    }

    /** Whether there are points to send or show: the review's, or the teacher's. */
    public boolean graded() {
        return !grade().isEmpty();
    }

    /** The same submission with these stored files. */
    public Submission withFiles(List<SubmittedFile> stored) {
        return new Submission(
                id,
                tenantId,
                homeworkId,
                studentId,
                chatId,
                status,
                analysis,
                aiGrade,
                outcome,
                tests,
                createdAt,
                updatedAt,
                stored,
                review,
                teacherPoints,
                comment,
                decisions,
                regradeRequests);
    }

    /** The same submission with this audit trail. */
    public Submission withDecisions(List<Decision> trail) {
        return new Submission(
                id,
                tenantId,
                homeworkId,
                studentId,
                chatId,
                status,
                analysis,
                aiGrade,
                outcome,
                tests,
                createdAt,
                updatedAt,
                files,
                review,
                teacherPoints,
                comment,
                trail,
                regradeRequests);
    }

    /** The same submission with these regrade requests. */
    public Submission withRegradeRequests(List<RegradeRequest> requests) {
        return new Submission(
                id,
                tenantId,
                homeworkId,
                studentId,
                chatId,
                status,
                analysis,
                aiGrade,
                outcome,
                tests,
                createdAt,
                updatedAt,
                files,
                review,
                teacherPoints,
                comment,
                decisions,
                requests);
    }
}
