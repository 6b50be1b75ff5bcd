package com.chatreview.lti;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.lti.course.LtiClass;
import com.chatreview.lti.platform.Course;
import com.chatreview.lti.platform.EmulatedPlatform;
import com.chatreview.lti.platform.HtmlForm;
import com.chatreview.lti.platform.Launch;
import com.chatreview.lti.platform.Member;
import com.chatreview.lti.platform.ResourceLink;
import com.chatreview.support.Api;
import com.chatreview.support.Eventually;
import com.chatreview.support.IntegrationTest;
import com.chatreview.support.TestService;
import com.chatreview.support.TestTenant;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;

/**
 * The teacher's class view (docs/lti.md): a teacher's launch of a homework link lists the submissions of the
 * platform's learners, and the teacher decides, changes points and answers regrade requests there, under the API's
 * rules; a learner's session can do none of it.
 */
@IntegrationTest
class LtiTeacherClassIntegrationTests {

    private static final Pattern SUBMISSION_LINK = Pattern.compile("href=\"(/lti/homework/submission\\?[^\"]+)\"");

    private static EmulatedPlatform platform;
    private static EmulatedPlatform.Tool tool;
    private static Course course;
    private static TestTenant school;
    private static String platformId;
    private static String homeworkId;
    private static ResourceLink essay;
    private static LearnerInTheLms lms;

    @Autowired
    JdbcClient jdbc;

    @BeforeAll
    static void aHomeworkPlacedInACourse(TestService service) throws IOException {
        RegisteredTool registered = RegisteredTool.in(service, "lti-teacher-class");
        platform = registered.platform();
        tool = registered.tool();
        school = registered.school();
        platformId = registered.platformId();
        String courseId = school.homework()
                .post("/v1/courses", "{\"teacherId\": \"t-1\", \"name\": \"Physics\"}")
                .json()
                .get("id")
                .asString();
        Api.Reply published = school.homework()
                .post(
                        "/v1/homeworks",
                        Api.JSON.writeValueAsString(Map.of(
                                "teacherId",
                                "t-1",
                                "courseId",
                                courseId,
                                "assignmentId",
                                "pendulum",
                                "files",
                                List.of(
                                        Map.of(
                                                "fileType", "task",
                                                "fileName", "task.md",
                                                "content",
                                                        "Explain why a pendulum's period does not depend on its mass."),
                                        Map.of(
                                                "fileType", "solution",
                                                "fileName", "solution.md",
                                                "content", "The mass cancels out of the equation of motion.")))));
        assertThat(published.status()).as(published.toString()).isEqualTo(201);
        homeworkId = published.json().get("id").asString();
        course = platform.course("PHYS 2", "Mechanics");
        essay = course.place("The pendulum", Map.of("homework_id", homeworkId), 100.0);
        lms = new LearnerInTheLms(platform, tool, course);
    }

    @AfterAll
    static void close() {
        platform.close();
    }

    @Test
    void theTeacherSeesTheClassDecidesWithPointsAndAnswersARegradeRequest() {
        Member ada = course.learner("Ada", "Lovelace");
        String submissionId = lms.handIn(ada, essay, "The mass cancels out.");
        awaitReview(submissionId);
        String path = "/v1/homeworks/" + homeworkId + "/submissions/" + submissionId;
        String ada_ = "lti:" + platformId + ":" + ada.sub();
        Api.Reply asked = school.homework()
                .post(
                        path + "/regrade-requests",
                        "{\"studentId\": \"" + ada_ + "\", \"message\": \"I explained it.\"}");
        assertThat(asked.status()).as(asked.toString()).isEqualTo(201);
        Api.Reply notOfTheLms = school.homework()
                .upload(
                        "/v1/homeworks/" + homeworkId + "/submissions",
                        new Api.Multipart().field("studentId", "student-rest").file("answer.md", "Mass."));
        assertThat(notOfTheLms.status()).isEqualTo(201);

        Member grace = course.instructor("Grace", "Hopper");
        HttpResponse<String> classPage = lms.homeworkPage(grace, essay);

        assertThat(classPage.statusCode()).as(classPage.body()).isEqualTo(200);
        assertThat(classPage.body())
                .contains("Grace Hopper</strong> (teacher)")
                .contains("Ada Lovelace")
                .doesNotContain("Hand in your solution")
                .doesNotContain("student-rest");
        assertThat(classPage.body()).containsPattern("Submissions 1 to (\\d+) of \\1, newest first");
        HttpResponse<String> page = follow(classPage, linkTo(classPage, submissionId));
        assertThat(page.statusCode()).as(page.body()).isEqualTo(200);
        assertThat(page.body())
                .contains("Your decision")
                .contains("I explained it.")
                .contains("Points for");
        JsonNode before = school.homework().get(path).json();
        JsonNode correctness = before.get("criteria").get(0);
        int given = correctness.get("points").asInt() == 0 ? 1 : 0;

        HtmlForm decision = form(page, "/lti/homework/decision")
                .set("status", "approved")
                .set("points.correctness", String.valueOf(given))
                .set("comment.correctness", "Say why the mass cancels.")
                .set("comment", "Nearly.");
        HttpResponse<String> decided = Launch.post(decision);

        assertThat(decided.statusCode()).as(decided.body()).isEqualTo(303);
        assertThat(decided.headers().firstValue("Location").orElseThrow()).contains("done=decided");
        JsonNode after = school.homework().get(path).json();
        assertThat(after.get("status").asString()).isEqualTo("approved");
        assertThat(after.get("comment").asString()).isEqualTo("Nearly.");
        assertThat(after.get("criteria").get(0).get("gradedBy").asString()).isEqualTo("teacher");
        assertThat(after.get("criteria").get(0).get("points").asInt()).isEqualTo(given);
        assertThat(after.get("criteria").get(1).get("gradedBy").asString())
                .as("a criterion the form left as it was stays the review's")
                .isEqualTo("ai");
        assertThat(after.get("decisions").get(0).get("decidedBy").asString())
                .isEqualTo("lti:" + platformId + ":" + grace.sub());

        HttpResponse<String> again = follow(classPage, linkTo(classPage, submissionId));
        HtmlForm answer = form(again, "/lti/homework/regrade-answer").set("answer", "Read the task again.");
        HttpResponse<String> answered = Launch.post(answer);
        assertThat(answered.statusCode()).as(answered.body()).isEqualTo(303);
        JsonNode request =
                school.homework().get(path).json().get("regradeRequests").get(0);
        assertThat(request.get("state").asString()).isEqualTo("answered");
        assertThat(request.get("answeredBy").asString()).isEqualTo("lti:" + platformId + ":" + grace.sub());

        HttpResponse<String> learnersPage = lms.homeworkPage(ada, essay);
        assertThat(learnersPage.body())
                .contains("Your teacher answered: Read the task again.")
                .contains("Grade <strong>" + after.get("grade").asString() + "</strong>")
                .contains("Your teacher: Nearly.");
    }

    @Test
    void aDecisionAgainstTheRulesIsSaidOnThePageAndALearnerCannotUseTheTeachersPages() {
        Member alan = course.learner("Alan", "Turing");
        String submissionId = lms.handIn(alan, essay, "Gravity pulls all masses alike.");
        awaitReview(submissionId);
        Member grace = course.instructor("Grace", "Hopper");
        HttpResponse<String> classPage = lms.homeworkPage(grace, essay);
        HttpResponse<String> page = follow(classPage, linkTo(classPage, submissionId));

        HttpResponse<String> tooMany = Launch.post(
                form(page, "/lti/homework/decision").set("status", "approved").set("points.correctness", "999"));
        assertThat(tooMany.statusCode()).as(tooMany.body()).isEqualTo(400);
        assertThat(tooMany.body()).contains("Nothing was saved").contains("must be between 0 and");
        HttpResponse<String> notWhole = Launch.post(
                form(page, "/lti/homework/decision").set("status", "approved").set("points.correctness", "2.5"));
        assertThat(notWhole.statusCode()).isEqualTo(400);
        assertThat(notWhole.body()).contains("must be a whole number");
        assertThat(school.homework()
                        .get("/v1/homeworks/" + homeworkId + "/submissions/" + submissionId)
                        .json()
                        .get("decisions")
                        .size())
                .isZero();

        HttpResponse<String> learnersPage = lms.homeworkPage(alan, essay);
        String learnersSession =
                LearnerInTheLms.handInForm(learnersPage).action().getQuery().substring("session=".length());
        HttpResponse<String> peek = Launch.send(HttpRequest.newBuilder(URI.create(tool.launchUrl())
                        .resolve("/lti/homework/submission?session=" + learnersSession + "&id=" + submissionId))
                .GET());
        assertThat(peek.statusCode()).isEqualTo(400);
        assertThat(peek.body()).contains("This page is for the course&#39;s teachers.");
        HttpResponse<String> forged = Launch.post(new HtmlForm(
                URI.create(tool.launchUrl()).resolve("/lti/homework/decision?session=" + learnersSession),
                Map.of("submission", submissionId, "status", "approved")));
        assertThat(forged.statusCode()).isEqualTo(400);
        HttpResponse<String> unknown = Launch.send(HttpRequest.newBuilder(URI.create(tool.launchUrl())
                        .resolve(firstSubmissionLink(classPage).replaceAll("id=[^&]+", "id=" + UUID.randomUUID())))
                .GET());
        assertThat(unknown.statusCode()).isEqualTo(400);
        assertThat(school.homework()
                        .get("/v1/homeworks/" + homeworkId + "/submissions/" + submissionId)
                        .json()
                        .get("status")
                        .asString())
                .isEqualTo("reviewed");
    }

    @Test
    void theClassIsShownFiftyAPageNewestFirst() {
        ResourceLink second = course.place("The pendulum, again", Map.of("homework_id", homeworkId), 100.0);
        String otherHomework = secondHomework();
        ResourceLink paged = course.place("Fifty-one answers", Map.of("homework_id", otherHomework), 10.0);
        for (int learner = 1; learner <= LtiClass.PAGE + 1; learner++) {
            Api.Reply handedIn = school.homework()
                    .upload(
                            "/v1/homeworks/" + otherHomework + "/submissions",
                            new Api.Multipart()
                                    .field("studentId", "lti:" + platformId + ":p-" + learner)
                                    .file("answer.md", "Answer " + learner));
            assertThat(handedIn.status()).as(handedIn.toString()).isEqualTo(201);
        }
        Member grace = course.instructor("Grace", "Hopper");

        HttpResponse<String> first = lms.homeworkPage(grace, paged);

        assertThat(first.statusCode()).as(first.body()).isEqualTo(200);
        assertThat(first.body())
                .contains("Submissions 1 to 50 of 51, newest first")
                .contains(">learner p-51<")
                .doesNotContain(">learner p-1<")
                .doesNotContain("Newer submissions");
        assertThat(links(first)).hasSize(LtiClass.PAGE);
        HttpResponse<String> older = follow(first, pageLink(first, "Older submissions"));
        assertThat(older.body())
                .contains("Submissions 51 to 51 of 51, newest first")
                .contains(">learner p-1<")
                .doesNotContain("Older submissions");
        HttpResponse<String> newer = follow(older, pageLink(older, "Newer submissions"));
        assertThat(newer.body()).contains("Submissions 1 to 50 of 51, newest first");
        assertThat(lms.homeworkPage(grace, second).body())
                .as("the other homework's class does not hold these")
                .doesNotContain("learner p-");
    }

    private static String secondHomework() {
        String courseId = school.homework()
                .post("/v1/courses", "{\"teacherId\": \"t-1\", \"name\": \"Physics 2\"}")
                .json()
                .get("id")
                .asString();
        Api.Reply published = school.homework()
                .post(
                        "/v1/homeworks",
                        Api.JSON.writeValueAsString(Map.of(
                                "teacherId",
                                "t-1",
                                "courseId",
                                courseId,
                                "assignmentId",
                                "spring",
                                "files",
                                List.of(Map.of(
                                        "fileType", "task",
                                        "fileName", "task.md",
                                        "content", "Explain Hooke's law.")))));
        assertThat(published.status()).as(published.toString()).isEqualTo(201);
        return published.json().get("id").asString();
    }

    private static String pageLink(HttpResponse<String> page, String text) {
        Matcher matcher =
                Pattern.compile("<a href=\"([^\"]+)\">" + text + "</a>").matcher(page.body());
        if (!matcher.find()) {
            throw new AssertionError("no link " + text + " in " + page.body());
        }
        return matcher.group(1).replace("&amp;", "&");
    }

    private void awaitReview(String submissionId) {
        Eventually.until(
                Eventually.PATIENCE,
                () -> Boolean.TRUE.equals(jdbc.sql("SELECT review_state = 'done' FROM submissions WHERE id = :id")
                        .param("id", UUID.fromString(submissionId))
                        .query(Boolean.class)
                        .single()));
    }

    private static List<String> links(HttpResponse<String> page) {
        Matcher matcher = SUBMISSION_LINK.matcher(page.body());
        List<String> links = new java.util.ArrayList<>();
        while (matcher.find()) {
            links.add(matcher.group(1).replace("&amp;", "&"));
        }
        return links;
    }

    private static String linkTo(HttpResponse<String> page, String submissionId) {
        return links(page).stream()
                .filter(link -> link.contains(submissionId))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no link to " + submissionId + " in " + page.body()));
    }

    private static String firstSubmissionLink(HttpResponse<String> page) {
        return links(page).stream().findFirst().orElseThrow(() -> new AssertionError("no link in " + page.body()));
    }

    private static HttpResponse<String> follow(HttpResponse<String> page, String link) {
        return Launch.send(HttpRequest.newBuilder(page.uri().resolve(link)).GET());
    }

    private static HtmlForm form(HttpResponse<String> page, String path) {
        return HtmlForm.all(page.body(), page.uri()).stream()
                .filter(candidate -> candidate.action().getPath().equals(path))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no form to " + path + " in " + page.body()));
    }
}
