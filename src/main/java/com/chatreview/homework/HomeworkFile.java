package com.chatreview.homework;

import java.time.Instant;
import java.util.UUID;

/**
 * A file of an assignment.
 *
 * @param fileType {@code task}, {@code solution} (the reference solution), {@code restriction} (rules a
 *     submission must keep) or {@code test} (the teacher's tests, run against every submission and never shown to
 *     students)
 * @param filePath where the file lives in the service's storage: {@code homeworks/<id>/<type>/<name>}
 */
public record HomeworkFile(
        UUID id,
        HomeworkId homeworkId,
        FileType fileType,
        String fileName,
        String filePath,
        String content,
        Instant createdAt,
        Instant updatedAt) {

    public enum FileType {
        TASK("task"),
        SOLUTION("solution"),
        RESTRICTION("restriction"),
        TEST("test");

        private final String value;

        FileType(String value) {
            this.value = value;
        }

        public String value() {
            return value;
        }

        public static java.util.Optional<FileType> of(String value) {
            for (FileType type : values()) {
                if (type.value.equals(value)) {
                    return java.util.Optional.of(type);
                }
            }
            return java.util.Optional.empty();
        }
    }
}
