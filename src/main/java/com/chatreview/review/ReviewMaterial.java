package com.chatreview.review;

import com.chatreview.assistant.Conversation.ContextDocument;
import com.chatreview.grading.ReviewRequest;
import com.chatreview.grading.ReviewRequest.ReviewDocument;
import com.chatreview.grading.TestEvidence;
import com.chatreview.homework.Homework;
import com.chatreview.homework.HomeworkFile;
import com.chatreview.submission.ExtractedText;
import com.chatreview.submission.FileText;
import com.chatreview.submission.SubmittedFile;
import com.chatreview.testrun.TestRun;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/** What the assistant is given: a homework and a submission's files, as the review and its chat read them. */
final class ReviewMaterial {

    private static final String HOMEWORK_TEXT = "text/plain";

    private ReviewMaterial() {}

    /**
     * The review's request. The student's files share {@code maxCharsTotal}, the first files first; so do the
     * homework's own files (the task first, then the restrictions, then the reference solution), so that what a
     * language model is sent stays bounded whatever the teacher uploaded.
     */
    static ReviewRequest request(Homework homework, List<FileText> files, int maxCharsTotal) {
        return request(homework, files, maxCharsTotal, null);
    }

    /** The review's request, with what the homework's tests showed ({@code null} when it has none). */
    static ReviewRequest request(Homework homework, List<FileText> files, int maxCharsTotal, @Nullable TestRun tests) {
        Budget students = new Budget(maxCharsTotal);
        List<ReviewDocument> submission = new ArrayList<>();
        for (FileText file : files) {
            // the files come from SubmissionsForReview.texts, which extracts the text of every file that had none
            ExtractedText text = Objects.requireNonNull(file.text(), "extracted by SubmissionsForReview.texts");
            String content = students.take(text.text());
            submission.add(new ReviewDocument(
                    file.file().fileName(),
                    file.file().contentType(),
                    content,
                    text.truncated() || content.length() < text.text().length(),
                    text.notOpened()));
        }
        Budget teachers = new Budget(maxCharsTotal);
        List<ReviewDocument> tasks = documents(homework, HomeworkFile.FileType.TASK, teachers);
        List<ReviewDocument> restrictions = documents(homework, HomeworkFile.FileType.RESTRICTION, teachers);
        List<ReviewDocument> solutions = documents(homework, HomeworkFile.FileType.SOLUTION, teachers);
        return new ReviewRequest(
                homework.assignmentId(),
                homework.subject(),
                tasks,
                solutions,
                restrictions,
                submission,
                homework.rubric(),
                tests == null ? null : evidence(tests));
    }

    /** A run of the tests as the grading reads it. */
    static TestEvidence evidence(TestRun run) {
        if (!run.ran()) {
            return TestEvidence.notRun(run.reason() == null ? "no reason was given" : run.reason());
        }
        List<TestEvidence.FailedTest> failures = run.failures().stream()
                .map(failure ->
                        new TestEvidence.FailedTest(failure.name(), failure.message(), failure.file(), failure.line()))
                .toList();
        String note = switch (run.state()) {
            case TIMEOUT -> run.reason();
            case ERROR ->
                failures.isEmpty()
                        ? run.reason()
                        : "the work could not be tested: " + failures.getFirst().message();
            default -> null;
        };
        return new TestEvidence(true, run.passed(), run.total(), failures, note);
    }

    /** Characters left to give; each text takes what it can of them. */
    private static final class Budget {

        private int left;

        Budget(int chars) {
            this.left = chars;
        }

        String take(String text) {
            String taken = text.length() > left ? text.substring(0, left) : text;
            left -= taken.length();
            return taken;
        }
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
     * reference solution and the teacher's tests are left out, so that no answer can hand them to the student.
     */
    static List<ContextDocument> chatContext(Homework homework, List<FileText> files) {
        List<ContextDocument> context = new ArrayList<>();
        for (HomeworkFile file : homework.files()) {
            if (file.fileType() == HomeworkFile.FileType.TASK || file.fileType() == HomeworkFile.FileType.RESTRICTION) {
                context.add(new ContextDocument(file.fileType().value(), file.fileName(), file.content()));
            }
        }
        for (FileText file : files) {
            ExtractedText text = Objects.requireNonNull(file.text(), "extracted by SubmissionsForReview.texts");
            String content = text.notOpened() != null ? "(" + text.notOpened() + ")" : text.text();
            context.add(new ContextDocument("submission", file.file().fileName(), content));
        }
        return context;
    }

    /**
     * What the homework's tests came to, for the review chat: test names, outcomes, messages and the student's lines
     * they point to; never the test files or the run's output (which quotes them). The offline assistant reads it line
     * by line ({@code ReviewQuestions}); a model reads it as data.
     */
    static ContextDocument testsDocument(TestRun run) {
        StringBuilder text = new StringBuilder();
        if (!run.ran()) {
            text.append("The teacher's tests were not run")
                    .append(run.reason() == null ? "." : ": " + run.reason() + ".");
            return new ContextDocument(TESTS, "the teacher's tests", text.toString());
        }
        text.append(run.passed()).append(" of ").append(run.total()).append(" of the teacher's tests pass.");
        if (run.state() == TestRun.State.TIMEOUT && run.reason() != null) {
            text.append(" The run was stopped: ").append(run.reason()).append('.');
        }
        for (TestRun.TestResult result : run.results()) {
            text.append("\n- ")
                    .append(oneLine(result.name()))
                    .append(": ")
                    .append(result.outcome().value());
            if (result.message() != null && result.outcome() != TestRun.Outcome.PASSED) {
                // the first line says what failed; a runner's diff after it repeats it at length
                text.append(": ")
                        .append(oneLine(
                                result.message().strip().lines().findFirst().orElse("")));
            }
            if (result.file() != null && result.line() != null) {
                text.append(" (")
                        .append(result.file())
                        .append(", line ")
                        .append(result.line())
                        .append(')');
            }
        }
        return new ContextDocument(TESTS, "the teacher's tests", text.toString());
    }

    /** The kind of the review chat's document of the tests' results. */
    static final String TESTS = "tests";

    private static String oneLine(String text) {
        String line = text.strip().replaceAll("\\s+", " ");
        return line.length() <= 300 ? line : line.substring(0, 299) + "…";
    }

    private static List<ReviewDocument> documents(Homework homework, HomeworkFile.FileType type, Budget budget) {
        return homework.filesOfType(type).stream()
                .map(file -> {
                    String content = budget.take(file.content());
                    return new ReviewDocument(
                            file.fileName(),
                            HOMEWORK_TEXT,
                            content,
                            content.length() < file.content().length(),
                            null);
                })
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
