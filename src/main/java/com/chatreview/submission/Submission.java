package com.chatreview.submission;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * A submission as stored.
 *
 * @param analysis the AI's review, empty until there is one
 * @param grade A to F, empty until the AI has graded
 */
public record Submission(
        UUID id,
        UUID tenantId,
        UUID homeworkId,
        String studentId,
        UUID chatId,
        SubmissionStatus status,
        String analysis,
        String grade,
        Instant createdAt,
        Instant updatedAt,
        List<SubmittedFile> files) {

    public Submission {
        files = List.copyOf(files);
    }

    /** The same submission with these stored files. */
    public Submission withFiles(List<SubmittedFile> stored) {
        return new Submission(
                id, tenantId, homeworkId, studentId, chatId, status, analysis, grade, createdAt, updatedAt, stored);
    }
}
