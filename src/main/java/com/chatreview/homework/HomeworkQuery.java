package com.chatreview.homework;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The filters of the assignment list; {@code null} or empty means "any".
 *
 * @param courseIds the assignment's course is one of these
 * @param search a case-insensitive substring of the assignment id, subject, course name or a file name
 */
public record HomeworkQuery(
        @Nullable String teacherId,
        @Nullable List<String> courseIds,
        @Nullable String search) {}
