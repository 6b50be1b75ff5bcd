package com.chatreview.review;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.grading.Grades;
import com.chatreview.support.Api;
import com.chatreview.support.Api.Multipart;
import com.chatreview.support.Api.Reply;
import com.chatreview.support.IntegrationTest;
import com.chatreview.support.TestService;
import com.chatreview.support.TestTenant;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;

/** The teacher's grade of docs/api.md: points and comments in the decision, beside the review's, over HTTP. */
@IntegrationTest
class TeacherGradeIntegrationTests {

    static final Duration PATIENCE = Duration.ofSeconds(60);

    @Autowired
    ReviewScheduler scheduler;

    @Autowired
    JdbcClient jdbc;

    Api homework;
    String homeworkId;

    @BeforeEach
    void tenantWithAHomework(TestService service) {
        TestTenant tenant = service.newTenant("teacher-grade-tests");
        homework = tenant.homework();
        String courseId = homework.post("/v1/courses", "{\"teacherId\": \"t-1\", \"name\": \"Python\"}")
                .json()
                .get("id")
                .asString();
        Reply published = homework.post(
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
        homeworkId = published.json().get("id").asString();
    }

    @AfterEach
    void jobsRunAgain() {
        scheduler.resume();
    }

    @Test
    void theTeachersPointsReplaceTheReviewsForTheirCriteriaAndTheLetterFollows() {
        JsonNode reviewed = awaitReview(upload("student-1", "def add(a, b):\n    return a - b\n"));
        String path = path(reviewed);
        Map<String, Integer> ai = points(reviewed.get("criteria"));
        assertThat(ai).containsOnlyKeys("correctness", "restrictions", "completeness");
        assertThat(reviewed.get("aiCriteria")).isEqualTo(withoutTeacherFields(reviewed.get("criteria")));
        assertThat(reviewed.get("aiGrade").asString())
                .isEqualTo(reviewed.get("grade").asString());
        reviewed.get("criteria").forEach(criterion -> {
            assertThat(criterion.get("gradedBy").asString()).isEqualTo("ai");
            assertThat(criterion.get("comment").isNull()).isTrue();
        });
        assertThat(reviewed.get("comment").isNull()).isTrue();

        Reply decided = homework.patch(path, """
                {"status": "approved", "teacherId": "t-7",
                 "criteria": [{"criterionId": "correctness", "points": 55, "comment": "Right in class, a typo here."}],
                 "comment": "Well done."}""");

        assertThat(decided.status()).as(decided.toString()).isEqualTo(200);
        JsonNode now = decided.json();
        Map<String, Integer> expected = new LinkedHashMap<>(ai);
        expected.put("correctness", 55);
        assertThat(points(now.get("criteria"))).isEqualTo(expected);
        JsonNode correctness = now.get("criteria").get(0);
        assertThat(correctness.get("gradedBy").asString()).isEqualTo("teacher");
        assertThat(correctness.get("comment").asString()).isEqualTo("Right in class, a typo here.");
        assertThat(correctness.get("explanation").asString())
                .as("the review's reasoning stays beside the teacher's points")
                .isEqualTo(reviewed.get("criteria").get(0).get("explanation").asString());
        assertThat(now.get("criteria").get(1).get("gradedBy").asString()).isEqualTo("ai");
        assertThat(now.get("aiCriteria")).as("never changed").isEqualTo(reviewed.get("aiCriteria"));
        assertThat(now.get("aiGrade").asString())
                .isEqualTo(reviewed.get("grade").asString());
        int total = expected.values().stream().mapToInt(Integer::intValue).sum();
        assertThat(now.get("grade").asString()).isEqualTo(Grades.letter(total, 100));
        assertThat(now.get("comment").asString()).isEqualTo("Well done.");
        JsonNode decision = now.get("decisions").get(0);
        assertThat(names(decision))
                .containsExactly("fromStatus", "toStatus", "decidedBy", "decidedAt", "criteria", "comment");
        assertThat(decision.get("decidedBy").asString()).isEqualTo("t-7");
        assertThat(decision.get("criteria").toString())
                .isEqualTo("[{\"criterionId\":\"correctness\",\"fromPoints\":" + ai.get("correctness")
                        + ",\"points\":55,\"comment\":\"Right in class, a typo here.\"}]");
        assertThat(decision.get("comment").asString()).isEqualTo("Well done.");
        assertThat(homework.get(path).json()).isEqualTo(now);

        assertThat(homework.patch(path, """
                        {"status": "approved", "criteria": [{"criterionId": "correctness", "points": 55,
                         "comment": "Right in class, a typo here."}], "comment": "Well done."}""").status())
                .as("the same status with nothing else changed")
                .isEqualTo(409);
        Reply changed = homework.patch(
                path, "{\"status\": \"approved\", \"criteria\": [{\"criterionId\": \"completeness\", \"points\": 0}]}");
        assertThat(changed.status())
                .as("the same status with other points is a decision")
                .isEqualTo(200);
        JsonNode later = changed.json();
        assertThat(later.get("decisions").size()).isEqualTo(2);
        assertThat(later.get("decisions").get(1).get("criteria").toString())
                .isEqualTo("[{\"criterionId\":\"completeness\",\"fromPoints\":" + ai.get("completeness")
                        + ",\"points\":0,\"comment\":null}]");
        assertThat(later.get("decisions").get(1).get("comment").isNull())
                .as("the comment left as it was")
                .isTrue();
        assertThat(later.get("comment").asString()).isEqualTo("Well done.");
        assertThat(points(later.get("criteria")).get("correctness")).isEqualTo(55);
        assertThat(points(later.get("criteria")).get("completeness")).isZero();
        assertThat(later.get("grade").asString())
                .isEqualTo(Grades.letter(total - ai.getOrDefault("completeness", 0), 100));
    }

    @Test
    void pointsOutsideTheRubricOrItsRangeAre400AndChangeNothing() {
        JsonNode reviewed = awaitReview(upload("student-2", ReviewIntegrationTests.SOLUTION));
        String path = path(reviewed);
        for (String criteria : List.of(
                "[{\"criterionId\": \"style\", \"points\": 1}]",
                "[{\"criterionId\": \"correctness\", \"points\": 61}]",
                "[{\"criterionId\": \"correctness\", \"points\": -1}]",
                "[{\"criterionId\": \"correctness\", \"points\": 2.5}]",
                "[{\"criterionId\": \"correctness\", \"points\": \"ten\"}]",
                "[{\"criterionId\": \"correctness\"}]",
                "[{\"points\": 3}]",
                "[null]",
                "[{\"criterionId\": \"correctness\", \"points\": 1}, {\"criterionId\": \"correctness\", \"points\": 2}]",
                "[{\"criterionId\": \"correctness\", \"points\": 1, \"comment\": \"" + "x".repeat(4_001) + "\"}]",
                "{\"criterionId\": \"correctness\", \"points\": 1}")) {
            Reply reply = homework.patch(path, "{\"status\": \"approved\", \"criteria\": " + criteria + "}");
            assertThat(reply.status()).as(criteria + " -> " + reply).isEqualTo(400);
            assertThat(reply.json().get("code").asString()).isEqualTo("VALIDATION_ERROR");
            assertThat(reply.json().get("fix").asString()).isNotBlank();
        }
        Reply long_ = homework.patch(path, "{\"status\": \"approved\", \"comment\": \"" + "x".repeat(4_001) + "\"}");
        assertThat(long_.status()).isEqualTo(400);
        assertThat(homework.patch(path, "{\"status\": \"approved\", \"comment\": \"" + "x".repeat(4_000) + "\"}")
                        .status())
                .isEqualTo(200);
        JsonNode now = homework.get(path).json();
        assertThat(now.get("criteria")).isEqualTo(reviewed.get("criteria"));
        assertThat(now.get("decisions").size()).isOne();
    }

    @Test
    void aReviewThatFinishesAfterTheDecisionLeavesTheTeachersPoints() {
        scheduler.pause();
        JsonNode submission = upload("student-3", ReviewIntegrationTests.SOLUTION);
        String path = path(submission);

        Reply some = homework.patch(
                path, "{\"status\": \"approved\", \"criteria\": [{\"criterionId\": \"correctness\", \"points\": 10}]}");
        assertThat(some.status())
                .as("before the review, points for some criteria would leave the others with none")
                .isEqualTo(400);
        assertThat(some.json().get("detail").asString())
                .contains("restrictions")
                .contains("completeness");
        Reply all = homework.patch(path, """
                {"status": "needs_revision", "teacherId": "t-1", "criteria": [
                  {"criterionId": "correctness", "points": 30},
                  {"criterionId": "restrictions", "points": 25},
                  {"criterionId": "completeness", "points": 5}]}""");
        assertThat(all.status()).as(all.toString()).isEqualTo(200);
        assertThat(all.json().get("grade").asString()).isEqualTo(Grades.letter(60, 100));
        assertThat(all.json().get("aiGrade").asString()).isEmpty();
        assertThat(all.json().get("aiCriteria").size()).isZero();
        assertThat(all.json()
                        .get("decisions")
                        .get(0)
                        .get("criteria")
                        .get(0)
                        .get("fromPoints")
                        .isNull())
                .as("the criterion had no points before")
                .isTrue();

        scheduler.resume();
        JsonNode reviewed = awaitReview(submission);

        assertThat(reviewed.get("status").asString()).isEqualTo("needs_revision");
        assertThat(reviewed.get("aiGrade").asString()).isNotEmpty();
        assertThat(reviewed.get("aiCriteria").size()).isEqualTo(3);
        assertThat(points(reviewed.get("criteria")))
                .containsExactly(
                        Map.entry("correctness", 30), Map.entry("restrictions", 25), Map.entry("completeness", 5));
        reviewed.get("criteria")
                .forEach(criterion ->
                        assertThat(criterion.get("gradedBy").asString()).isEqualTo("teacher"));
        assertThat(reviewed.get("criteria").get(0).get("explanation").asString())
                .as("the review's reasoning, now that there is one")
                .isNotBlank();
        assertThat(reviewed.get("grade").asString()).isEqualTo(Grades.letter(60, 100));
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
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        long wait = 100;
        while (System.nanoTime() < deadline) {
            JsonNode current = homework.get(path).json();
            if (current.get("review").get("state").asString().equals("done")) {
                return current;
            }
            try {
                Thread.sleep(wait);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            wait = Math.min(1000, wait * 2);
        }
        throw new AssertionError("no review of " + path + " within " + PATIENCE);
    }

    private static Map<String, Integer> points(JsonNode criteria) {
        Map<String, Integer> points = new LinkedHashMap<>();
        criteria.forEach(criterion -> points.put(
                criterion.get("criterionId").asString(), criterion.get("points").asInt()));
        return points;
    }

    private static JsonNode withoutTeacherFields(JsonNode criteria) {
        var copy = criteria.deepCopy();
        copy.forEach(criterion -> {
            ((tools.jackson.databind.node.ObjectNode) criterion).remove("gradedBy");
            ((tools.jackson.databind.node.ObjectNode) criterion).remove("comment");
        });
        return copy;
    }

    private static List<String> names(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.propertyNames().forEach(names::add);
        return names;
    }
}
