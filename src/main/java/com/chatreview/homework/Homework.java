package com.chatreview.homework;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** An assignment with its files and course. {@code subject} may be {@code null}. */
public record Homework(
        UUID id,
        UUID tenantId,
        String teacherId,
        String assignmentId,
        String subject,
        UUID courseId,
        Instant createdAt,
        Instant updatedAt,
        List<HomeworkFile> files,
        Course course) {

    public List<HomeworkFile> filesOfType(HomeworkFile.FileType type) {
        return files.stream().filter(file -> file.fileType() == type).toList();
    }
}
