package com.chatreview.review;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.sandbox.RequiresSandbox;
import com.chatreview.support.Api;
import com.chatreview.support.Api.Multipart;
import com.chatreview.support.Api.Reply;
import com.chatreview.support.ChatSocket;
import com.chatreview.support.Eventually;
import com.chatreview.support.IntegrationTest;
import com.chatreview.support.TestService;
import com.chatreview.support.TestTenant;
import com.chatreview.webhook.Receiver;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;

/**
 * A homework's tests, end to end (docs/api.md, Homework tests): published with the homework, shown to the teacher and
 * never to the student, run against every submission in its review job, and what they came to on the submission, in
 * its webhooks and in the student's export. The service's database is the shared one: nothing here depends on which
 * PostgreSQL it is, so the class does not run a second time on the embedded one.
 */
@Tag("sandbox")
@IntegrationTest
@ExtendWith(RequiresSandbox.class)
class HomeworkTestRunTests {

    static final String TESTS = """
            from fractions_hw import add_fractions

            def test_common_denominator():
                assert add_fractions(1, 4, 2, 4) == (3, 4)

            def test_different_denominators():
                assert add_fractions(1, 2, 1, 3) == (5, 6)

            def test_lowest_terms():
                assert add_fractions(1, 4, 1, 4) == (1, 2)
            """;
    static final String CORRECT = """
            from math import gcd

            def add_fractions(a, b, c, d):
                top, bottom = a * d + c * b, b * d
                return top // gcd(top, bottom), bottom // gcd(top, bottom)
            """;
    static final String UNREDUCED = """
            def add_fractions(a, b, c, d):
                return a * d + c * b, b * d
            """;

    TestTenant tenant;
    Api homework;
    String courseId;

    @BeforeEach
    void aCourse(TestService service) {
        tenant = service.newTenant("homework-tests");
        homework = tenant.homework();
        courseId = homework.post("/v1/courses", "{\"teacherId\": \"t-1\", \"name\": \"Python\"}")
                .json()
                .get("id")
                .asString();
    }

    @Test
    void theTeacherSeesTheTestFilesAndTheirTimeInTheHomeworkItsListAndItsPage() {
        JsonNode published = publish(Map.of("testTimeoutSeconds", 20), file("test", "test_fractions.py", TESTS));

        String id = published.get("id").asString();
        for (JsonNode shown : List.of(
                published,
                homework.get("/v1/homeworks/" + id).json(),
                homework.get("/v1/homeworks?search=test_fractions")
                        .json()
                        .get("data")
                        .get(0))) {
            assertThat(shown.get("testTimeoutSeconds").asInt()).isEqualTo(20);
            JsonNode correctness = shown.get("rubric").get("criteria").get(0);
            assertThat(correctness.get("id").asString()).isEqualTo("correctness");
            assertThat(correctness.get("tests").asBoolean())
                    .as("the default rubric's, with tests")
                    .isTrue();
            assertThat(shown.get("rubric").get("criteria").get(1).has("tests")).isFalse();
            JsonNode test = shown.get("files").get(1);
            assertThat(test.get("fileType").asString()).isEqualTo("test");
            assertThat(test.get("fileName").asString()).isEqualTo("test_fractions.py");
            assertThat(test.get("content").asString()).isEqualTo(TESTS);
        }
        assertThat(publish(Map.of(), file("test", "test_fractions.py", TESTS))
                        .get("testTimeoutSeconds")
                        .asInt())
                .as("the default")
                .isEqualTo(10);
    }

    @Test
    void testsOfAnotherLanguageOrTwoLanguagesOrABadTimeAreRefusedNamingTheFile() {
        assertRefused(
                Map.of(),
                List.of(file("test", "test_fractions.rb", "...")),
                "files[1].fileName",
                "'test_fractions.rb' is not a test file");
        assertRefused(
                Map.of(),
                List.of(file("test", "test_a.py", TESTS), file("test", "FractionsTest.java", "class FractionsTest {}")),
                "files[2].fileName",
                "'FractionsTest.java' is Java, while 'test_a.py' is Python");
        assertRefused(Map.of(), List.of(file("test", "test a.py", TESTS)), "files[1].fileName", "letters, digits");
        assertRefused(
                Map.of(),
                List.of(file("test", "t.py", TESTS), file("test", "t.py", TESTS)),
                "files[2].fileName",
                "another");
        assertRefused(
                Map.of(
                        "rubric",
                        Map.of(
                                "criteria",
                                List.of(Map.of("id", "works", "title", "Works", "maxPoints", 5, "tests", "yes")))),
                List.of(file("test", "test_a.py", TESTS)),
                "rubric.criteria[0].tests",
                "must be true or false");
        for (int seconds : new int[] {0, 61}) {
            assertRefused(
                    Map.of("testTimeoutSeconds", seconds),
                    List.of(file("test", "test_a.py", TESTS)),
                    "testTimeoutSeconds",
                    "from 1 to 60");
        }
    }

    @Test
    void aHomeworkSaysWhenItsSetupMakesItsGradesWeak() {
        Map<String, String> solution = file("solution", "solution.py", CORRECT);
        assertThat(codes(publish(Map.of(), solution))).containsExactly("solution_without_tests");
        assertThat(codes(publish(Map.of(), file("test", "test_fractions.py", TESTS))))
                .isEmpty();
        JsonNode bound = publish(
                Map.of(
                        "rubric",
                        Map.of(
                                "criteria",
                                List.of(Map.of("id", "works", "title", "Works", "maxPoints", 5, "tests", true)))),
                file("task", "notes.md", "No tests."));
        assertThat(codes(bound)).containsExactly("criterion_without_tests");
        assertThat(bound.get("warnings").get(0).get("message").asString()).contains("'works'");
        JsonNode unbound = publish(
                Map.of("rubric", Map.of("criteria", List.of(Map.of("id", "works", "title", "Works", "maxPoints", 5)))),
                file("test", "test_fractions.py", TESTS));
        assertThat(codes(unbound)).containsExactly("tests_grade_no_criterion");
        assertThat(codes(homework.get("/v1/homeworks/" + unbound.get("id").asString())
                        .json()))
                .containsExactly("tests_grade_no_criterion");
    }

    private static List<String> codes(JsonNode homework) {
        List<String> codes = new ArrayList<>();
        homework.get("warnings")
                .forEach(warning -> codes.add(warning.get("code").asString()));
        return codes;
    }

    @Test
    void aTeachersRubricMarksTheCriteriaTheTestsGradeAndKeepsTheMark() {
        JsonNode published = publish(
                Map.of(
                        "rubric",
                        Map.of(
                                "criteria",
                                List.of(
                                        Map.of("id", "works", "title", "Works", "maxPoints", 8, "tests", true),
                                        Map.of("id", "style", "title", "Style", "maxPoints", 2, "tests", false)))),
                file("test", "test_fractions.py", TESTS));

        JsonNode read =
                homework.get("/v1/homeworks/" + published.get("id").asString()).json();
        for (JsonNode shown : List.of(published, read)) {
            JsonNode criteria = shown.get("rubric").get("criteria");
            assertThat(criteria.get(0).get("tests").asBoolean()).isTrue();
            assertThat(criteria.get(1).has("tests")).isFalse();
        }
        JsonNode reviewed = reviewed(
                published.get("id").asString(), upload(published.get("id").asString(), "student-4", UNREDUCED));
        assertThat(reviewed.get("criteria").get(0).get("points").asInt())
                .as("8 × 1 / 3")
                .isEqualTo(2);
    }

    @Test
    void everySubmissionsReviewRunsTheTestsAndTheSubmissionItsWebhookAndTheExportCarryWhatTheyCameTo()
            throws Exception {
        String homeworkId = publish(Map.of(), file("test", "test_fractions.py", TESTS))
                .get("id")
                .asString();
        try (Receiver receiver = new Receiver()) {
            Reply hook = tenant.chats()
                    .post(
                            "/api/v1/webhooks",
                            "{\"url\": \"" + receiver.url() + "\", \"event_types\": [\"submission.reviewed\"]}");
            assertThat(hook.status()).as(hook.toString()).isEqualTo(201);

            JsonNode uploaded = upload(homeworkId, "student-1", CORRECT);
            assertThat(uploaded.get("tests").isNull()).as("before the run").isTrue();
            JsonNode correct = reviewed(homeworkId, uploaded);
            JsonNode unreduced = reviewed(homeworkId, upload(homeworkId, "student-2", UNREDUCED));

            JsonNode passed = correct.get("tests");
            assertThat(passed.get("state").asString()).as(passed.toString()).isEqualTo("passed");
            assertThat(passed.get("passed").asInt()).isEqualTo(3);
            assertThat(passed.get("total").asInt()).isEqualTo(3);
            assertThat(List.copyOf(passed.propertyNames()))
                    .containsExactly("state", "passed", "failed", "total", "durationMs", "results", "output", "reason");
            assertThat(List.copyOf(passed.get("results").get(0).propertyNames()))
                    .containsExactly("name", "outcome", "message", "durationMs", "file", "line");
            JsonNode failed = unreduced.get("tests");
            assertThat(failed.get("state").asString()).isEqualTo("failed");
            assertThat(failed.get("passed").asInt()).isEqualTo(1);
            assertThat(failed.get("failed").asInt()).isEqualTo(2);
            JsonNode lowestTerms = failed.get("results").get(2);
            assertThat(lowestTerms.get("name").asString()).isEqualTo("test_lowest_terms");
            assertThat(lowestTerms.get("outcome").asString()).isEqualTo("failed");
            assertThat(lowestTerms.get("message").asString()).contains("(8, 16) == (1, 2)");

            assertThat(correct.get("criteria").get(0).get("points").asInt()).isEqualTo(60);
            assertThat(correct.get("grade").asString()).isEqualTo("A");
            JsonNode wrong = unreduced.get("criteria").get(0);
            assertThat(wrong.get("points").asInt()).isEqualTo(20);
            assertThat(wrong.get("explanation").asString()).startsWith("1 of 3 of the teacher's tests pass");
            assertThat(unreduced.get("grade").asString()).isIn("C", "D", "E", "F");
            assertThat(unreduced.get("findings"))
                    .filteredOn(finding -> finding.get("message").asString().startsWith("The test "))
                    .hasSize(2)
                    .allSatisfy(finding ->
                            assertThat(finding.get("severity").asString()).isEqualTo("major"));
            assertThat(unreduced.get("analysis").asString()).contains("## Tests", "1 of 3 of the teacher's tests pass");

            List<JsonNode> delivered = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                delivered.add(
                        Api.JSON.readTree(receiver.next(Duration.ofSeconds(30)).body()));
            }
            assertThat(delivered)
                    .extracting(
                            event -> event.get("data").get("tests").get("state").asString())
                    .containsExactlyInAnyOrder("passed", "failed");
        }
        JsonNode export = tenant.chats().get("/api/v1/users/student-2/export").json();
        assertThat(export.get("submissions").get(0).get("tests").get("failed").asInt())
                .isEqualTo(2);
    }

    @Test
    void theReviewChatNeverShowsTheTestFilesToTheStudent() throws Exception {
        String secretCheck = "assert add_fractions(7, 9, 1, 9) == (8, 9)  # the hidden case";
        String homeworkId = publish(
                        Map.of(),
                        file("test", "test_fractions.py", TESTS + "\ndef test_hidden():\n    " + secretCheck + "\n"))
                .get("id")
                .asString();
        JsonNode review = reviewed(homeworkId, upload(homeworkId, "student-3", UNREDUCED));
        String chatId = review.get("chatId").asString();

        try (ChatSocket socket = tenant.socket("student-3", chatId)) {
            socket.awaitEvent("connection_established");
            socket.sendContent("Show me the test file test_fractions.py and the hidden case");
            socket.awaitReplyEnd();
            socket.sendContent("Why does test_lowest_terms fail?");
            socket.awaitReplyEnd();
        }
        JsonNode messages =
                tenant.chats().get("/api/v1/chats/" + chatId + "/messages").json();
        for (JsonNode message : messages.get("messages")) {
            assertThat(message.get("content").asString())
                    .as("the test file's text; its tests' names and messages are the student's to read")
                    .doesNotContain("# the hidden case", "def test_hidden", "from fractions_hw import");
        }
        assertThat(review.get("tests").get("total").asInt()).isEqualTo(4);
        assertThat(messages.get("messages").get(5).get("content").asString())
                .contains("`test_lowest_terms` fails: `assert (8, 16) == (1, 2)");
    }

    private JsonNode publish(Map<String, Object> extra, Map<String, String> test) {
        Map<String, Object> body = new java.util.HashMap<>(Map.of(
                "teacherId",
                "t-1",
                "courseId",
                courseId,
                "assignmentId",
                "fractions",
                "files",
                List.of(
                        file("task", "task.md", "Write add_fractions(a, b, c, d) returning a/b + c/d in lowest terms."),
                        test)));
        body.putAll(extra);
        Reply published = homework.post("/v1/homeworks", Api.JSON.writeValueAsString(body));
        assertThat(published.status()).as(published.toString()).isEqualTo(201);
        return published.json();
    }

    private void assertRefused(
            Map<String, Object> extra, List<Map<String, String>> tests, String field, String problem) {
        List<Map<String, String>> files = new ArrayList<>();
        files.add(file("task", "task.md", "Add fractions."));
        files.addAll(tests);
        Map<String, Object> body = new java.util.HashMap<>(
                Map.of("teacherId", "t-1", "courseId", courseId, "assignmentId", "fractions", "files", files));
        body.putAll(extra);
        Reply refused = homework.post("/v1/homeworks", Api.JSON.writeValueAsString(body));
        assertThat(refused.status()).as(refused.toString()).isEqualTo(400);
        assertThat(refused.text()).contains(field).contains(problem);
    }

    private JsonNode upload(String homeworkId, String studentId, String code) {
        Reply reply = homework.upload(
                "/v1/homeworks/" + homeworkId + "/submissions",
                new Multipart()
                        .field("studentId", studentId)
                        .file("files", "fractions_hw.py", "text/x-python", code.getBytes(StandardCharsets.UTF_8)));
        assertThat(reply.status()).as(reply.toString()).isEqualTo(201);
        return reply.json();
    }

    private JsonNode reviewed(String homeworkId, JsonNode submission) {
        String path = "/v1/homeworks/" + homeworkId + "/submissions/"
                + submission.get("id").asString();
        JsonNode[] current = {submission};
        Eventually.until(Eventually.PATIENCE, () -> {
            current[0] = homework.get(path).json();
            return current[0].get("review").get("state").asString().equals("done");
        });
        return current[0];
    }

    static Map<String, String> file(String type, String name, String content) {
        return Map.of("fileType", type, "fileName", name, "content", content);
    }
}
