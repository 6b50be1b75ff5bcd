package com.chatreview.review;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.chatreview.grading.Grades;
import com.chatreview.support.Api;
import com.chatreview.support.Api.Multipart;
import com.chatreview.support.Api.Reply;
import com.chatreview.support.Eventually;
import com.chatreview.support.IntegrationTest;
import com.chatreview.support.TestService;
import com.chatreview.support.TestTenant;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** GET /v1/homeworks/{id}/agreement of docs/api.md: where the AI grades unlike the teacher. */
@IntegrationTest
class AgreementIntegrationTests {

    static final Duration PATIENCE = Duration.ofSeconds(60);

    TestService service;
    Api homework;
    String homeworkId;

    @BeforeEach
    void tenantWithAHomework(TestService service) {
        this.service = service;
        TestTenant tenant = service.newTenant("agreement-tests");
        homework = tenant.homework();
        homeworkId = publish(homework);
    }

    @Test
    void perCriterionTheDecidedTheChangedTheMeanDifferenceAndTheLargestDifferences() {
        List<JsonNode> reviewed = new ArrayList<>();
        String[] works = {
            ReviewIntegrationTests.SOLUTION,
            "def add(a, b):\n    return a - b\n",
            "def add(a, b):\n    return b + a\n",
            "print('hello')\n"
        };
        for (int i = 0; i < works.length; i++) {
            reviewed.add(upload("student-" + i, works[i]));
        }
        reviewed.replaceAll(this::awaitReview);

        // 0: approved as the review graded it; 1: correctness to the full 60; 2: correctness and completeness to 0;
        // 3: not decided
        decide(reviewed.get(0), "approved", List.of());
        decide(reviewed.get(1), "approved", List.of(Map.entry("correctness", 60)));
        decide(reviewed.get(2), "needs_revision", List.of(Map.entry("correctness", 0), Map.entry("completeness", 0)));

        Reply reply = homework.get("/v1/homeworks/" + homeworkId + "/agreement");

        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        JsonNode agreement = reply.json();
        assertThat(agreement.get("homeworkId").asString()).isEqualTo(homeworkId);
        assertThat(agreement.get("decidedSubmissions").asInt()).isEqualTo(3);
        int kept = 0;
        int[][] finals = {
            points(reviewed.get(0)),
            withPoints(points(reviewed.get(1)), 0, 60),
            withPoints(withPoints(points(reviewed.get(2)), 0, 0), 2, 0)
        };
        for (int i = 0; i < 3; i++) {
            boolean teacherGave = i > 0;
            String letter = teacherGave ? Grades.letter(sum(finals[i]), 100) : grade(reviewed.get(i));
            if (letter.equals(reviewed.get(i).get("aiGrade").asString())) {
                kept++;
            }
        }
        assertThat(agreement.get("lettersKept").asInt()).isEqualTo(kept);
        assertThat(agreement.get("lettersKeptShare").asDouble()).isCloseTo(kept / 3.0, within(1e-9));

        JsonNode criteria = agreement.get("criteria");
        assertThat(criteria.size()).isEqualTo(3);
        assertThat(criteria.get(0).get("criterionId").asString()).isEqualTo("correctness");
        assertThat(criteria.get(0).get("maxPoints").asInt()).isEqualTo(60);
        for (int c = 0; c < 3; c++) {
            JsonNode criterion = criteria.get(c);
            assertThat(criterion.get("decidedSubmissions").asInt()).isEqualTo(3);
            int changed = 0;
            int absolute = 0;
            List<Integer> differences = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                int difference = finals[i][c] - points(reviewed.get(i))[c];
                if (difference != 0) {
                    changed++;
                    absolute += Math.abs(difference);
                    differences.add(difference);
                }
            }
            differences.sort((a, b) -> Integer.compare(Math.abs(b), Math.abs(a)));
            assertThat(criterion.get("changedByTeacher").asInt())
                    .as(criterion.toString())
                    .isEqualTo(changed);
            assertThat(criterion.get("meanAbsoluteDifference").asDouble()).isCloseTo(absolute / 3.0, within(1e-9));
            List<Integer> listed = new ArrayList<>();
            criterion.get("largestDifferences").forEach(difference -> {
                listed.add(difference.get("difference").asInt());
                assertThat(difference.get("teacherPoints").asInt()
                                - difference.get("aiPoints").asInt())
                        .isEqualTo(difference.get("difference").asInt());
                assertThat(homework.get(difference.get("href").asString())
                                .json()
                                .get("studentId")
                                .asString())
                        .isEqualTo(difference.get("studentId").asString());
            });
            assertThat(listed).isEqualTo(differences);
        }
    }

    @Test
    void aHomeworkWithNothingDecidedHasNoSharesAndAnotherTenantsIsNotFound() {
        Reply empty = homework.get("/v1/homeworks/" + homeworkId + "/agreement");
        assertThat(empty.status()).isEqualTo(200);
        assertThat(empty.json().get("decidedSubmissions").asInt()).isZero();
        assertThat(empty.json().get("lettersKeptShare").isNull()).isTrue();
        empty.json().get("criteria").forEach(criterion -> {
            assertThat(criterion.get("meanAbsoluteDifference").isNull()).isTrue();
            assertThat(criterion.get("largestDifferences").size()).isZero();
        });

        Api other = service.newTenant("agreement-other").homework();
        assertThat(other.get("/v1/homeworks/" + homeworkId + "/agreement").status())
                .isEqualTo(404);
        assertThat(homework.get("/v1/homeworks/" + UUID.randomUUID() + "/agreement")
                        .status())
                .isEqualTo(404);
    }

    private static String publish(Api api) {
        String courseId = api.post("/v1/courses", "{\"teacherId\": \"t-1\", \"name\": \"Python\"}")
                .json()
                .get("id")
                .asString();
        Reply published = api.post(
                "/v1/homeworks",
                Api.JSON.writeValueAsString(Map.of(
                        "teacherId",
                        "t-1",
                        "courseId",
                        courseId,
                        "assignmentId",
                        "add-1",
                        "files",
                        List.of(
                                Map.of(
                                        "fileType",
                                        "task",
                                        "fileName",
                                        "task.md",
                                        "content",
                                        ReviewIntegrationTests.TASK),
                                Map.of(
                                        "fileType",
                                        "solution",
                                        "fileName",
                                        "solution.py",
                                        "content",
                                        ReviewIntegrationTests.SOLUTION)))));
        assertThat(published.status()).as(published.toString()).isEqualTo(201);
        return published.json().get("id").asString();
    }

    private void decide(JsonNode submission, String status, List<Map.Entry<String, Integer>> points) {
        StringBuilder criteria = new StringBuilder();
        for (Map.Entry<String, Integer> entry : points) {
            criteria.append(criteria.isEmpty() ? "" : ", ")
                    .append("{\"criterionId\": \"")
                    .append(entry.getKey())
                    .append("\", \"points\": ")
                    .append(entry.getValue())
                    .append("}");
        }
        Reply reply =
                homework.patch(path(submission), "{\"status\": \"" + status + "\", \"criteria\": [" + criteria + "]}");
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
    }

    private static int[] points(JsonNode submission) {
        JsonNode criteria = submission.get("aiCriteria");
        int[] points = new int[criteria.size()];
        for (int i = 0; i < points.length; i++) {
            points[i] = criteria.get(i).get("points").asInt();
        }
        return points;
    }

    private static int[] withPoints(int[] points, int criterion, int value) {
        int[] changed = points.clone();
        changed[criterion] = value;
        return changed;
    }

    private static int sum(int[] points) {
        int sum = 0;
        for (int point : points) {
            sum += point;
        }
        return sum;
    }

    private static String grade(JsonNode submission) {
        return submission.get("aiGrade").asString();
    }

    private JsonNode upload(String studentId, String content) {
        Reply reply = homework.upload(
                "/v1/homeworks/" + homeworkId + "/submissions",
                new Multipart()
                        .field("studentId", studentId)
                        .file("files", "main.py", "text/x-python", content.getBytes(StandardCharsets.UTF_8)));
        assertThat(reply.status()).as(reply.toString()).isEqualTo(201);
        return reply.json();
    }

    private String path(JsonNode submission) {
        return "/v1/homeworks/" + homeworkId + "/submissions/"
                + submission.get("id").asString();
    }

    private JsonNode awaitReview(JsonNode submission) {
        String path = path(submission);
        return Eventually.value(PATIENCE, () -> {
            JsonNode current = homework.get(path).json();
            return current.get("review").get("state").asString().equals("done") ? current : null;
        });
    }
}
