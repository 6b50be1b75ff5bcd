package com.chatreview.lti;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.lti.platform.Course;
import com.chatreview.lti.platform.EmulatedPlatform;
import com.chatreview.lti.platform.HtmlForm;
import com.chatreview.lti.platform.Launch;
import com.chatreview.lti.platform.Member;
import com.chatreview.lti.platform.ResourceLink;
import com.chatreview.support.Api;
import com.chatreview.support.IntegrationTest;
import com.chatreview.support.TestService;
import com.chatreview.support.TestTenant;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Deep linking against the emulated platform: a teacher picks one of the tenant's homework, or writes a new one, and
 * the platform receives a signed resource link to it with a line item of the rubric's points, which its learners
 * then launch. A learner cannot add content; a used or forged page session opens nothing.
 */
@IntegrationTest
class LtiDeepLinkingIntegrationTests {

    private static EmulatedPlatform platform;
    private static EmulatedPlatform.Tool tool;
    private static Course course;
    private static Member teacher;
    private static Member ada;
    private static TestTenant school;
    private static String essayId;
    private static String platformId;

    @BeforeAll
    static void aRegisteredPlatformAndATenantsHomework(TestService service) throws IOException {
        RegisteredTool registered = RegisteredTool.in(service, "lti-deep-linking");
        platform = registered.platform();
        tool = registered.tool();
        school = registered.school();
        platformId = registered.platformId();
        course = platform.course("HIST 2", "Modern history");
        teacher = course.instructor("Grace", "Hopper");
        ada = course.learner("Ada", "Lovelace");
        String courseId = school.homework()
                .post("/v1/courses", "{\"teacherId\": \"t-1\", \"name\": \"History\"}")
                .json()
                .get("id")
                .asString();
        Api.Reply essay = school.homework()
                .post(
                        "/v1/homeworks",
                        Api.JSON.writeValueAsString(Map.of(
                                "teacherId",
                                "t-1",
                                "courseId",
                                courseId,
                                "assignmentId",
                                "essay-1848",
                                "subject",
                                "The revolutions of 1848",
                                "files",
                                List.of(Map.of("fileType", "task", "fileName", "task.md", "content", "Write.")),
                                "rubric",
                                Map.of(
                                        "criteria",
                                        List.of(
                                                Map.of("id", "sources", "title", "Sources", "maxPoints", 8),
                                                Map.of("id", "argument", "title", "Argument", "maxPoints", 12))))));
        assertThat(essay.status()).as(essay.toString()).isEqualTo(201);
        essayId = essay.json().get("id").asString();
    }

    @AfterAll
    static void close() {
        platform.close();
    }

    @Test
    void aTeacherPicksAHomeworkAndTheCourseGetsALinkWithTheRubricsPointsWhichLearnersLaunch() {
        HttpResponse<String> picker =
                platform.deepLinking(tool, course, teacher).run().page();
        assertThat(picker.statusCode()).as(picker.body()).isEqualTo(200);
        assertThat(picker.body()).contains("Add homework to the course", "The revolutions of 1848", "20 points");

        HttpResponse<String> answer = Launch.post(HtmlForm.with(picker.body(), picker.uri(), "homework_id", essayId));

        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        HtmlForm toPlatform = HtmlForm.in(answer.body(), answer.uri());
        assertThat(toPlatform.action()).hasToString(platform.deepLinkingReturnUrl());
        assertThat(answer.headers().firstValue("Content-Security-Policy"))
                .hasValueSatisfying(policy -> assertThat(policy).contains("form-action 'self' " + platform.issuer()));
        HttpResponse<String> added = Launch.post(toPlatform);
        assertThat(added.statusCode()).as(added.body()).isEqualTo(200);
        ResourceLink link = platform.deepLinkingReturns().getLast().links().getFirst();
        assertThat(link.custom()).containsEntry("homework_id", essayId);
        assertThat(link.url()).isEqualTo(tool.launchUrl());
        assertThat(link.title()).isEqualTo("The revolutions of 1848 (essay-1848)");
        assertThat(java.util.Objects.requireNonNull(link.lineItem()).scoreMaximum())
                .isEqualTo(20.0);
        assertThat(java.util.Objects.requireNonNull(link.lineItem()).resourceId())
                .isEqualTo(essayId);

        HttpResponse<String> learnersLaunch =
                platform.launch(tool, course, ada, link).run().page();
        assertThat(learnersLaunch.statusCode()).as(learnersLaunch.body()).isEqualTo(303);
        HttpResponse<String> learnersPage = Launch.send(java.net.http.HttpRequest.newBuilder(URI.create(
                                tool.launchUrl())
                        .resolve(learnersLaunch.headers().firstValue("Location").orElseThrow()))
                .GET());
        assertThat(learnersPage.statusCode()).as(learnersPage.body()).isEqualTo(200);
        assertThat(learnersPage.body()).contains("The revolutions of 1848 (essay-1848)", "Hand in your solution");

        HttpResponse<String> again = Launch.post(HtmlForm.with(picker.body(), picker.uri(), "homework_id", essayId));
        assertThat(again.statusCode())
                .as("the page's session ended with its answer")
                .isEqualTo(400);
    }

    @Test
    void aTeacherWritesANewHomeworkWhichIsPublishedInTheCoursesNameAndAdded() {
        HttpResponse<String> picker =
                platform.deepLinking(tool, course, teacher).run().page();
        HtmlForm create = HtmlForm.all(picker.body(), picker.uri()).stream()
                .filter(form -> form.action().getPath().endsWith("/create"))
                .findFirst()
                .orElseThrow();

        HttpResponse<String> empty = Launch.post(create.set("title", "").set("task", ""));
        assertThat(empty.statusCode()).isEqualTo(400);
        assertThat(empty.body()).contains("The homework was not published", "The title");

        HttpResponse<String> answer =
                Launch.post(create.set("title", "map-reading").set("task", "Read the map of 1848."));
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        assertThat(Launch.post(HtmlForm.in(answer.body(), answer.uri())).statusCode())
                .isEqualTo(200);
        ResourceLink link = platform.deepLinkingReturns().getLast().links().getFirst();
        String homeworkId = link.custom().get("homework_id");
        Api.Reply published = school.homework().get("/v1/homeworks/" + homeworkId);
        assertThat(published.status()).isEqualTo(200);
        assertThat(published.json().get("assignmentId").asString()).isEqualTo("map-reading");
        assertThat(published.json().get("course").get("name").asString()).isEqualTo("Modern history");
        assertThat(java.util.Objects.requireNonNull(link.lineItem()).scoreMaximum())
                .as("the default rubric's points")
                .isEqualTo(published
                        .json()
                        .get("rubric")
                        .get("criteria")
                        .valueStream()
                        .mapToDouble(criterion -> criterion.get("maxPoints").asDouble())
                        .sum());
    }

    @Test
    void anLmsThatTakesNoLineItemGetsTheLinkWithout() {
        String settings = "https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings";
        HttpResponse<String> picker = platform.deepLinking(tool, course, teacher)
                .tamper(claims -> {
                    Map<String, Object> taken = new java.util.HashMap<>();
                    if (claims.build().getClaim(settings) instanceof Map<?, ?> sent) {
                        sent.forEach((name, value) -> taken.put(String.valueOf(name), value));
                    }
                    taken.put("accept_lineitem", false);
                    claims.claim(settings, taken);
                })
                .run()
                .page();

        HttpResponse<String> answer = Launch.post(HtmlForm.with(picker.body(), picker.uri(), "homework_id", essayId));
        HttpResponse<String> added = Launch.post(HtmlForm.in(answer.body(), answer.uri()));

        assertThat(added.statusCode()).as(added.body()).isEqualTo(200);
        ResourceLink link = platform.deepLinkingReturns().getLast().links().getFirst();
        assertThat(link.custom()).containsEntry("homework_id", essayId);
        assertThat(link.lineItem()).isNull();
    }

    @Test
    void aNewHomeworkSentTwiceAtOnceIsPublishedOnce() throws Exception {
        HttpResponse<String> picker =
                platform.deepLinking(tool, course, teacher).run().page();
        HtmlForm create = HtmlForm.all(picker.body(), picker.uri()).stream()
                .filter(form -> form.action().getPath().endsWith("/create"))
                .findFirst()
                .orElseThrow()
                .set("title", "twice-sent")
                .set("task", "Sent twice.");

        List<HttpResponse<String>> answers;
        try (var both = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor()) {
            var first = both.submit(() -> Launch.post(create));
            var second = both.submit(() -> Launch.post(create));
            answers = List.of(first.get(), second.get());
        }

        assertThat(answers).extracting(HttpResponse::statusCode).containsExactlyInAnyOrder(200, 400);
        assertThat(answers)
                .filteredOn(answer -> answer.statusCode() == 400)
                .singleElement()
                // refused as the publishing one commits ("used already"), or after it did ("expired or was used")
                .satisfies(refused -> assertThat(refused.body()).containsAnyOf("used already", "was used"));
        assertThat(school.homework()
                        .get("/v1/homeworks?search=twice-sent")
                        .json()
                        .get("data")
                        .size())
                .as("homework published")
                .isEqualTo(1);
    }

    @Test
    void theSearchNarrowsTheChoices() {
        HttpResponse<String> picker =
                platform.deepLinking(tool, course, teacher).run().page();
        String session = HtmlForm.with(picker.body(), picker.uri(), "homework_id", essayId)
                .field("session");

        HttpResponse<String> found = Launch.send(
                java.net.http.HttpRequest.newBuilder(URI.create(tool.launchUrl().replace("/launch", "/deep-linking")
                                + "?session=" + session + "&search=revolutions"))
                        .GET());
        HttpResponse<String> none = Launch.send(
                java.net.http.HttpRequest.newBuilder(URI.create(tool.launchUrl().replace("/launch", "/deep-linking")
                                + "?session=" + session + "&search=nothing-like-this"))
                        .GET());

        assertThat(found.statusCode()).isEqualTo(200);
        assertThat(found.body()).contains("The revolutions of 1848");
        assertThat(none.body()).doesNotContain("The revolutions of 1848").contains("No homework matches");
    }

    @ParameterizedTest
    @ValueSource(strings = {"javascript:alert(1)", "https://x;script-src*@lms.example/return"})
    void aReturnUrlThatIsNoPlainWebAddressIsRefused(String returnUrl) {
        HttpResponse<String> page = platform.deepLinking(tool, course, teacher)
                .tamper(claims -> claims.claim(
                        "https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings",
                        Map.of("deep_link_return_url", returnUrl, "accept_types", List.of("ltiResourceLink"))))
                .run()
                .page();

        assertThat(page.statusCode()).isEqualTo(400);
        assertThat(page.body()).contains("deep_link_return_url").doesNotContain(returnUrl);
    }

    @Test
    void aLearnerCannotAddContent() {
        HttpResponse<String> page =
                platform.deepLinking(tool, course, ada).run().page();

        assertThat(page.statusCode()).isEqualTo(400);
        assertThat(page.body()).contains("Only teachers");
    }

    @Test
    void aForgedSessionOrAnotherTenantsHomeworkOpensNothing() throws IOException {
        HttpResponse<String> picker =
                platform.deepLinking(tool, course, teacher).run().page();
        HtmlForm choose = HtmlForm.with(picker.body(), picker.uri(), "homework_id", essayId);

        HttpResponse<String> forged = Launch.post(choose.set("session", "forged-session-token"));
        String elsewhere = otherTenant.publishHomework("not-yours");
        HttpResponse<String> foreign = Launch.post(choose.set("homework_id", elsewhere));

        assertThat(forged.statusCode()).isEqualTo(400);
        assertThat(forged.body()).contains("expired or was used");
        assertThat(foreign.statusCode()).isEqualTo(400);
        assertThat(foreign.body()).contains("No such homework");
    }

    @Test
    void erasingTheUserEndsThePagesTheyHaveOpen() {
        HttpResponse<String> picker =
                platform.deepLinking(tool, course, teacher).run().page();
        HtmlForm choose = HtmlForm.with(picker.body(), picker.uri(), "homework_id", essayId);

        String userId = "lti:" + platformId + ":" + teacher.sub();
        // a user the tenant holds data of (a session alone is not: the erasure of a user without data is a 404)
        assertThat(school.chats()
                        .post("/api/v1/chats", "{\"user_id\": \"" + userId + "\"}")
                        .status())
                .isEqualTo(201);
        Api.Reply started = school.chats().delete("/api/v1/users/" + userId);
        assertThat(started.status()).as(started.toString()).isEqualTo(202);
        String erasureId = started.json().get("erasure_id").asString();
        com.chatreview.support.Eventually.until(
                com.chatreview.support.Eventually.PATIENCE,
                () -> school.chats()
                        .get("/api/v1/erasures/" + erasureId)
                        .json()
                        .get("status")
                        .asString()
                        .equals("done"));

        HttpResponse<String> after = Launch.post(choose);
        assertThat(after.statusCode()).isEqualTo(400);
        assertThat(after.body()).contains("expired or was used");
    }

    private static TestTenant otherTenant;

    @BeforeAll
    static void anotherTenant(TestService service) {
        otherTenant = service.newTenant("lti-deep-linking-other");
    }
}
