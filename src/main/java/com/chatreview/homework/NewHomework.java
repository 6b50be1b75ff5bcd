package com.chatreview.homework;

import java.util.List;

/** What a teacher sends to publish an assignment. */
public record NewHomework(String teacherId, String courseId, String assignmentId, String subject, List<NewFile> files) {

    public record NewFile(String fileType, String fileName, String content) {}
}
