package com.chatreview.homework;

import com.chatreview.grading.Rubric;
import com.chatreview.tenancy.TenantId;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * An assignment with its files and course. {@code subject} may be {@code null}.
 *
 * @param rubric what its submissions are graded against: the teacher's, or {@link Rubric#DEFAULT} when the teacher
 *     gave none; never {@code null}
 * @param testTimeoutSeconds how long a run of its tests against a submission may last, compiling included
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
        Rubric rubric,
        int testTimeoutSeconds) {

    /** How long a run of a homework's tests may last when the teacher did not say. */
    public static final int DEFAULT_TEST_TIMEOUT_SECONDS = 10;

    public static final int MAX_TEST_TIMEOUT_SECONDS = 60;

    public Homework {
        rubric = rubric == null ? Rubric.DEFAULT : rubric;
        // a homework with tests and no rubric of the teacher's: its correctness is what the tests say
        if (rubric.equals(Rubric.DEFAULT)
                && files.stream().anyMatch(file -> file.fileType() == HomeworkFile.FileType.TEST)) {
            rubric = Rubric.DEFAULT_WITH_TESTS;
        }
    }

    /** An assignment whose tests, if any, may run for the default time. */
    public Homework(
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
        this(
                id,
                tenantId,
                teacherId,
                assignmentId,
                subject,
                courseId,
                createdAt,
                updatedAt,
                files,
                course,
                rubric,
                DEFAULT_TEST_TIMEOUT_SECONDS);
    }

    /** What about the homework's setup makes its grades weaker than the teacher may think. */
    public List<HomeworkWarning> warnings() {
        return HomeworkWarning.of(this);
    }

    /** The teacher's tests; empty when the homework has none. */
    public List<HomeworkFile> tests() {
        return filesOfType(HomeworkFile.FileType.TEST);
    }

    /** The language of the homework's tests; empty when it has none. */
    public Optional<TestLanguage> testLanguage() {
        return tests().stream()
                .map(file -> TestLanguage.ofFile(file.fileName()))
                .flatMap(Optional::stream)
                .findFirst();
    }

    public List<HomeworkFile> filesOfType(HomeworkFile.FileType type) {
        return files.stream().filter(file -> file.fileType() == type).toList();
    }
}
