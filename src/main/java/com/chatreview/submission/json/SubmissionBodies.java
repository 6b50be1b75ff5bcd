package com.chatreview.submission.json;

import com.chatreview.chatui.ChatUi;
import com.chatreview.grading.Verdict.CriterionScore;
import com.chatreview.grading.Verdict.Finding;
import com.chatreview.grading.Verdict.Flag;
import com.chatreview.submission.Decision;
import com.chatreview.submission.GradedCriterion;
import com.chatreview.submission.RegradeRequest;
import com.chatreview.submission.ReviewProgress;
import com.chatreview.submission.Submission;
import com.chatreview.submission.SubmittedFile;
import com.chatreview.testrun.TestRun;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A submission as the service writes it in JSON, for whoever reads it: the REST bodies of the submissions API, the
 * same shape in a user's data export and in the submission webhooks' payloads (one shape, three readers).
 */
public final class SubmissionBodies {

    private SubmissionBodies() {}

    public record SubmissionFileBody(String id, String fileName, String contentType, long size, String sha256) {
        public static SubmissionFileBody of(SubmittedFile file) {
            return new SubmissionFileBody(
                    file.id().toString(), file.fileName(), file.contentType(), file.size(), file.sha256());
        }
    }

    /** A submission: the interface's fields, then studentId, updatedAt and the stored files. */
    public record SubmissionBody(
            String id,
            String homeworkId,
            String chatId,

            @Schema(allowableValues = {"submitted", "reviewed", "approved", "needs_revision"})
            String status,

            String chatIframeUrl,
            Instant createdAt,
            String analysis,

            @Schema(
                    allowableValues = {"", "A", "B", "C", "D", "E", "F"},
                    description = "The final letter: the review's until the teacher gives points, then the letter of"
                            + " the final points")
            String grade,

            @Schema(
                    allowableValues = {"", "A", "B", "C", "D", "E", "F"},
                    description = "The review's letter, whatever the teacher decided")
            String aiGrade,

            @Schema(
                    description = "The final points per criterion: the teacher's where given, else the review's;"
                            + " empty before either")
            List<GradedCriterionBody> criteria,

            @Schema(
                    description = "The review's points per criterion, never changed by the teacher; empty before the"
                            + " review")
            List<CriterionScoreBody> aiCriteria,

            @Schema(description = "What the review found, in the student's reading order; empty before the review")
            List<FindingBody> findings,

            @Schema(description = "What the teacher should know beyond the points; empty before the review")
            List<FlagBody> flags,

            @Schema(
                    description = "What the homework's tests came to against the files: null when the homework has"
                            + " none, or before they ran",
                    nullable = true)
            @JsonInclude(JsonInclude.Include.ALWAYS)
            @Nullable
            TestRun tests,

            String studentId,
            Instant updatedAt,
            List<SubmissionFileBody> files,
            ReviewBody review,
            List<DecisionBody> decisions,

            @Schema(description = "The teacher's comment on the whole submission", nullable = true)
            @JsonInclude(JsonInclude.Include.ALWAYS)
            @Nullable
            String comment,

            @Schema(description = "The student's regrade requests, oldest first")
            List<RegradeRequestBody> regradeRequests,

            MetadataBody metadata) {}

    public record GradedCriterionBody(
            String criterionId,
            String title,
            int points,
            int maxPoints,
            String explanation,
            List<String> findingIds,

            @Schema(allowableValues = {"teacher", "ai"}) String gradedBy,

            @Schema(description = "The teacher's comment on these points", nullable = true)
            @JsonInclude(JsonInclude.Include.ALWAYS)
            @Nullable
            String comment) {

        public static GradedCriterionBody of(GradedCriterion criterion) {
            CriterionScore score = criterion.score();
            return new GradedCriterionBody(
                    score.criterionId(),
                    score.title(),
                    score.points(),
                    score.maxPoints(),
                    score.explanation(),
                    score.findingIds(),
                    criterion.gradedBy().value(),
                    criterion.comment());
        }
    }

    public record CriterionScoreBody(
            String criterionId, String title, int points, int maxPoints, String explanation, List<String> findingIds) {

        public static CriterionScoreBody of(CriterionScore score) {
            return new CriterionScoreBody(
                    score.criterionId(),
                    score.title(),
                    score.points(),
                    score.maxPoints(),
                    score.explanation(),
                    score.findingIds());
        }
    }

    public record FindingBody(
            String id,
            String criterionId,

            @Schema(allowableValues = {"info", "minor", "major", "critical"})
            String severity,

            @Schema(nullable = true, description = "The student's file; null for the whole submission") @Nullable
            String file,

            @Schema(nullable = true) @Nullable Integer line,
            @Schema(nullable = true) @Nullable Integer endLine,

            @Schema(nullable = true, description = "The student's text at those lines, verbatim") @Nullable
            String quote,

            String message) {

        public static FindingBody of(Finding finding) {
            return new FindingBody(
                    finding.id(),
                    finding.criterionId(),
                    finding.severity().value(),
                    finding.file(),
                    finding.line(),
                    finding.endLine(),
                    finding.quote(),
                    finding.message());
        }
    }

    public record FlagBody(
            @Schema(
                    allowableValues = {
                        "addressed_to_grader",
                        "no_readable_work",
                        "unreadable_file",
                        "criterion_not_assessed",
                        "tests_not_run",
                        "correctness_unverified"
                    })
            String kind,

            @Schema(nullable = true) @Nullable String file,
            @Schema(nullable = true) @Nullable Integer line,
            String message) {

        public static FlagBody of(Flag flag) {
            return new FlagBody(flag.kind(), flag.file(), flag.line(), flag.message());
        }
    }

    /** Where the AI review stands. */
    public record ReviewBody(
            @Schema(allowableValues = {"pending", "waiting_for_budget", "done", "failed"})
            String state,

            @Schema(description = "Failed attempts of the current round")
            int failedAttempts,

            @Schema(description = "Why the latest attempt failed", nullable = true) @Nullable
            String error,

            @Schema(nullable = true) @Nullable Instant reviewedAt) {}

    /** The audit trail of the teacher's decisions, oldest first, each with what it changed. */
    public record DecisionBody(
            String fromStatus,
            String toStatus,
            @Nullable String decidedBy,
            Instant decidedAt,

            @Schema(description = "The criteria whose points (or their comment) this decision changed")
            List<PointsChangeBody> criteria,

            @Schema(
                    description = "The comment on the whole this decision set (empty: removed it); null when it left"
                            + " the comment as it was",
                    nullable = true)
            @JsonInclude(JsonInclude.Include.ALWAYS)
            @Nullable
            String comment) {

        public static DecisionBody of(Decision decision) {
            return new DecisionBody(
                    decision.from().value(),
                    decision.to().value(),
                    decision.decidedBy(),
                    decision.decidedAt(),
                    decision.changedPoints().stream()
                            .map(change -> new PointsChangeBody(
                                    change.criterionId(), change.fromPoints(), change.points(), change.comment()))
                            .toList(),
                    decision.comment());
        }
    }

    public record PointsChangeBody(
            String criterionId,

            @Schema(description = "The final points before; null when the criterion had none yet", nullable = true)
            @JsonInclude(JsonInclude.Include.ALWAYS)
            @Nullable
            Integer fromPoints,

            int points,

            @Schema(nullable = true) @JsonInclude(JsonInclude.Include.ALWAYS) @Nullable
            String comment) {}

    public record MetadataBody(
            @Schema(description = "The AI review failed for good; analysis says why")
            boolean reviewFailed) {}

    public record SubmissionList(List<SubmissionBody> data, boolean nextPage, boolean prevPage, long total) {}

    public record RegradeRequestBody(
            String id,

            @Schema(description = "The criterion it is about; null for the whole grade", nullable = true)
            @JsonInclude(JsonInclude.Include.ALWAYS)
            @Nullable
            String criterionId,

            String message,

            @Schema(allowableValues = {"open", "answered"}) String state,

            @Schema(nullable = true) @JsonInclude(JsonInclude.Include.ALWAYS) @Nullable
            String answer,

            Instant createdAt,

            @Schema(nullable = true) @JsonInclude(JsonInclude.Include.ALWAYS) @Nullable
            Instant answeredAt,

            @Schema(nullable = true) @JsonInclude(JsonInclude.Include.ALWAYS) @Nullable
            String answeredBy) {

        public static RegradeRequestBody of(RegradeRequest request) {
            return new RegradeRequestBody(
                    request.id().toString(),
                    request.criterionId(),
                    request.message(),
                    request.state().value(),
                    request.answer(),
                    request.createdAt(),
                    request.answeredAt(),
                    request.answeredBy());
        }
    }

    /** The chat page's URL for the links the service writes ({@link ChatUi#pageUrl}). */
    public static String chatUiUrl(ChatUi chatUi) {
        return chatUi.pageUrl();
    }

    public static SubmissionBody body(Submission submission, String chatUiUrl) {
        return new SubmissionBody(
                submission.id().toString(),
                submission.homeworkId().toString(),
                submission.chatId().toString(),
                submission.status().value(),
                chatUiUrl + "/?chat_id=" + submission.chatId(),
                submission.createdAt(),
                submission.analysis(),
                submission.grade(),
                submission.aiGrade(),
                submission.criteria().stream().map(GradedCriterionBody::of).toList(),
                submission.outcome().criteria().stream()
                        .map(CriterionScoreBody::of)
                        .toList(),
                submission.outcome().findings().stream().map(FindingBody::of).toList(),
                submission.outcome().flags().stream().map(FlagBody::of).toList(),
                submission.tests(),
                submission.studentId(),
                submission.updatedAt(),
                submission.files().stream().map(SubmissionFileBody::of).toList(),
                new ReviewBody(
                        submission.review().state().value(),
                        submission.review().failedAttempts(),
                        submission.review().error(),
                        submission.review().reviewedAt()),
                submission.decisions().stream().map(DecisionBody::of).toList(),
                submission.comment(),
                submission.regradeRequests().stream()
                        .map(RegradeRequestBody::of)
                        .toList(),
                new MetadataBody(submission.review().state() == ReviewProgress.State.FAILED));
    }
}
