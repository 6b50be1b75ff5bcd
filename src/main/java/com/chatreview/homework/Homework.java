package com.chatreview.homework;

import com.chatreview.grading.Rubric;
import com.chatreview.tenancy.TenantId;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * An assignment with its files and course. {@code subject} may be {@code null}.
 *
 * @param rubric what its submissions are graded against: the teacher's, or {@link Rubric#DEFAULT} when the teacher
 *     gave none; never {@code null}
 */
public record Homework(
        HomeworkId id,
        TenantId tenantId,
        String teacherId,
        String assignmentId,
        @Nullable String subject,
        UUID courseId,
        Instant createdAt,
        Instant updatedAt,
        List<HomeworkFile> files,
        Course course,
        Rubric rubric) {

    public Homework {
        rubric = rubric == null ? Rubric.DEFAULT : rubric;
    }

    public List<HomeworkFile> filesOfType(HomeworkFile.FileType type) {
        return files.stream().filter(file -> file.fileType() == type).toList();
    }
}
