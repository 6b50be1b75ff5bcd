package com.chatreview.submission;

import com.chatreview.chat.ChatId;
import com.chatreview.homework.HomeworkId;
import com.chatreview.tenancy.TenantId;
import com.chatreview.testrun.TestRun;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A submission as stored.
 *
 * @param analysis the AI's review, empty until there is one (or why the review failed)
 * @param grade A to F, empty until the AI has graded; it stays beside any decision of the teacher
 * @param outcome the review's criteria, findings and flags, empty until there is a review
 * @param tests what the homework's tests came to against the files; {@code null} when the homework has none, or
 *     before they ran
 * @param decisions the teacher's decisions, oldest first
 */
public record Submission(
        SubmissionId id,
        TenantId tenantId,
        HomeworkId homeworkId,
        String studentId,
        ChatId chatId,
        SubmissionStatus status,
        String analysis,
        String grade,
        ReviewOutcome outcome,
        @Nullable TestRun tests,
        Instant createdAt,
        Instant updatedAt,
        List<SubmittedFile> files,
        ReviewProgress review,
        List<Decision> decisions) {

    public Submission {
        files = List.copyOf(files);
        decisions = List.copyOf(decisions);
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
                grade,
                outcome,
                tests,
                createdAt,
                updatedAt,
                stored,
                review,
                decisions);
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
                grade,
                outcome,
                tests,
                createdAt,
                updatedAt,
                files,
                review,
                trail);
    }
}
