package com.chatreview.homework;

import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * What a teacher sends to publish an assignment.
 *
 * @param rubric the rubric as the client wrote it, checked by {@link HomeworkCatalog#publish} (so that a wrong type
 *     inside it is named like any other problem of the request); {@code null} or JSON {@code null} when none was
 *     given
 * @param testTimeoutSeconds how long a run of the tests may last; {@code null} for the default
 */
public record NewHomework(
        String teacherId,
        String courseId,
        String assignmentId,
        @Nullable String subject,
        List<NewFile> files,
        @Nullable JsonNode rubric,
        @Nullable Integer testTimeoutSeconds) {

    /** An assignment without a rubric of its own. */
    public NewHomework(
            String teacherId, String courseId, String assignmentId, @Nullable String subject, List<NewFile> files) {
        this(teacherId, courseId, assignmentId, subject, files, null, null);
    }

    /** An assignment whose tests, if any, run for the default time. */
    public NewHomework(
            String teacherId,
            String courseId,
            String assignmentId,
            @Nullable String subject,
            List<NewFile> files,
            @Nullable JsonNode rubric) {
        this(teacherId, courseId, assignmentId, subject, files, rubric, null);
    }

    public record NewFile(String fileType, String fileName, String content) {}
}
