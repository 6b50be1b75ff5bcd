package com.chatreview.review;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.chatreview.grading.ReviewRequest;
import com.chatreview.grading.ReviewRequest.ReviewDocument;
import com.chatreview.grading.Rubric;
import com.chatreview.homework.Course;
import com.chatreview.homework.Homework;
import com.chatreview.homework.HomeworkFile;
import com.chatreview.homework.HomeworkFile.FileType;
import com.chatreview.homework.HomeworkId;
import com.chatreview.submission.ExtractedText;
import com.chatreview.submission.FileText;
import com.chatreview.submission.SubmittedFile;
import com.chatreview.tenancy.TenantId;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** What the assistant is sent stays within the text budget, for the student's files and the homework's alike. */
class ReviewMaterialTests {

    @Test
    void theStudentsFilesAndTheHomeworksFilesEachShareTheBudgetFirstFilesFirst() {
        Homework homework = homework(
                file(FileType.SOLUTION, "solution.py", "s".repeat(100)),
                file(FileType.TASK, "task.md", "t".repeat(30)),
                file(FileType.RESTRICTION, "rules.txt", "r".repeat(30)));
        List<FileText> submission = List.of(
                text(0, "a.py", ExtractedText.read("a".repeat(60), false)),
                text(1, "b.py", ExtractedText.read("b".repeat(60), false)),
                text(2, "c.png", ExtractedText.notRead("an image: listed, not opened")));

        ReviewRequest request = ReviewMaterial.request(homework, submission, 100);

        assertThat(request.submission())
                .extracting(ReviewDocument::name, document -> document.text().length(), ReviewDocument::truncated)
                .containsExactly(tuple("a.py", 60, false), tuple("b.py", 40, true), tuple("c.png", 0, false));
        assertThat(request.submission().get(2).notOpened()).isEqualTo("an image: listed, not opened");
        assertThat(request.task())
                .singleElement()
                .satisfies(task -> assertThat(task.truncated()).isFalse());
        assertThat(request.restrictions())
                .singleElement()
                .satisfies(rules -> assertThat(rules.text()).hasSize(30));
        assertThat(request.solution()).singleElement().satisfies(solution -> {
            assertThat(solution.text()).hasSize(40);
            assertThat(solution.truncated()).isTrue();
        });
    }

    private static Homework homework(HomeworkFile... files) {
        Instant now = Instant.now();
        TenantId tenantId = TenantId.of(UUID.randomUUID());
        UUID courseId = UUID.randomUUID();
        return new Homework(
                HomeworkId.random(),
                tenantId,
                "teacher",
                "budget-1",
                null,
                courseId,
                now,
                now,
                List.of(files),
                new Course(courseId, tenantId, "teacher", "Course", now, now),
                Rubric.DEFAULT);
    }

    private static HomeworkFile file(FileType type, String name, String content) {
        Instant now = Instant.now();
        return new HomeworkFile(
                UUID.randomUUID(), HomeworkId.random(), type, name, "homeworks/x/" + name, content, now, now);
    }

    private static FileText text(int position, String name, ExtractedText text) {
        return new FileText(
                new SubmittedFile(UUID.randomUUID(), position, name, "text/plain", 60, "0".repeat(64)), text);
    }
}
