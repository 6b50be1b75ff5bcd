package com.chatreview.review;

import com.chatreview.assistant.Conversation.ContextDocument;
import com.chatreview.assistant.ReviewRequest;
import com.chatreview.assistant.ReviewRequest.ReviewDocument;
import com.chatreview.homework.Homework;
import com.chatreview.homework.HomeworkFile;
import com.chatreview.submission.ExtractedText;
import com.chatreview.submission.FileText;
import com.chatreview.submission.SubmittedFile;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** What the assistant is given: a homework and a submission's files, as the review and its chat read them. */
final class ReviewMaterial {

    private static final String HOMEWORK_TEXT = "text/plain";

    private ReviewMaterial() {}

    /** The review's request; the student's files share {@code maxCharsTotal}, the first files first. */
    static ReviewRequest request(Homework homework, List<FileText> files, int maxCharsTotal) {
        List<ReviewDocument> submission = new ArrayList<>();
        int left = maxCharsTotal;
        for (FileText file : files) {
            ExtractedText text = file.text();
            String content = text.text();
            boolean truncated = text.truncated();
            if (content.length() > left) {
                content = content.substring(0, left);
                truncated = true;
            }
            left -= content.length();
            submission.add(new ReviewDocument(
                    file.file().fileName(), file.file().contentType(), content, truncated, text.notOpened()));
        }
        return new ReviewRequest(
                homework.assignmentId(),
                homework.subject(),
                documents(homework, HomeworkFile.FileType.TASK),
                documents(homework, HomeworkFile.FileType.SOLUTION),
                documents(homework, HomeworkFile.FileType.RESTRICTION),
                submission);
    }

    /** The user message that asks for the review, naming every submitted file. */
    static String question(Homework homework, List<FileText> files) {
        StringBuilder text = new StringBuilder("Please review my submission for \"")
                .append(homework.assignmentId())
                .append("\".\n\nFiles:");
        for (FileText file : files) {
            SubmittedFile submitted = file.file();
            text.append("\n- ")
                    .append(submitted.fileName())
                    .append(" (")
                    .append(submitted.contentType())
                    .append(", ")
                    .append(size(submitted.size()))
                    .append(')');
            if (file.text() != null && file.text().notOpened() != null) {
                text.append(": ").append(file.text().notOpened());
            }
        }
        return text.toString();
    }

    /**
     * The material of the review chat's later questions: the task and restrictions, and the student's files. The
     * reference solution is left out, so that no answer can hand it to the student.
     */
    static List<ContextDocument> chatContext(Homework homework, List<FileText> files) {
        List<ContextDocument> context = new ArrayList<>();
        for (HomeworkFile file : homework.files()) {
            if (file.fileType() != HomeworkFile.FileType.SOLUTION) {
                context.add(new ContextDocument(file.fileType().value(), file.fileName(), file.content()));
            }
        }
        for (FileText file : files) {
            ExtractedText text = file.text();
            String content = text.notOpened() != null ? "(" + text.notOpened() + ")" : text.text();
            context.add(new ContextDocument("submission", file.file().fileName(), content));
        }
        return context;
    }

    private static List<ReviewDocument> documents(Homework homework, HomeworkFile.FileType type) {
        return homework.filesOfType(type).stream()
                .map(file -> ReviewDocument.text(file.fileName(), HOMEWORK_TEXT, file.content()))
                .toList();
    }

    private static String size(long bytes) {
        if (bytes < 1024) {
            return bytes + " B";
        }
        if (bytes < 1024 * 1024) {
            return String.format(Locale.ROOT, "%.1f KB", bytes / 1024.0);
        }
        return String.format(Locale.ROOT, "%.1f MB", bytes / (1024.0 * 1024));
    }
}
