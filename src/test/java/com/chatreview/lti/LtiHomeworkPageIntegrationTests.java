package com.chatreview.lti;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.lti.launch.LtiSessions;
import com.chatreview.lti.platform.Course;
import com.chatreview.lti.platform.EmulatedPlatform;
import com.chatreview.lti.platform.Launch;
import com.chatreview.lti.platform.Member;
import com.chatreview.lti.platform.ResourceLink;
import com.chatreview.support.Api;
import com.chatreview.support.Eventually;
import com.chatreview.support.IntegrationTest;
import com.chatreview.support.TestService;
import com.chatreview.support.TestTenant;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;

/**
 * The learner's homework page, reached by a launch of a resource link naming the homework: the task and rules but
 * never the teacher's solution, an upload under the upload endpoint's rules, and the learner's submissions with
 * their review, as the REST API has them under {@code lti:{platform id}:{sub}}.
 */
@IntegrationTest
class LtiHomeworkPageIntegrationTests {

    /** {@code lti.hand-ins-per-learner} of the tests' service */
    static final int HAND_INS_AN_HOUR = 3;

    private static EmulatedPlatform platform;
    private static EmulatedPlatform.Tool tool;
    private static Course course;
    private static TestTenant school;
    private static String platformId;
    private static String homeworkId;
    private static ResourceLink essay;

    @BeforeAll
    static void aHomeworkPlacedInACourse(TestService service) throws IOException {
        RegisteredTool registered = RegisteredTool.in(service, "lti-homework-page");
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
                                "teacherId", "t-1",
                                "courseId", courseId,
                                "assignmentId", "pendulum",
                                "subject", "The pendulum",
                                "files",
                                        List.of(
                                                Map.of(
                                                        "fileType", "task",
                                                        "fileName", "task.md",
                                                        "content",
                                                                "Explain why a pendulum's period <b>does not</b> depend on its mass."),
                                                Map.of(
                                                        "fileType", "restriction",
                                                        "fileName", "rules.md",
                                                        "content", "At most one page."),
                                                Map.of(
                                                        "fileType", "solution",
                                                        "fileName", "solution.md",
                                                        "content", "TEACHERS-ONLY: the mass cancels out.")))));
        assertThat(published.status()).as(published.toString()).isEqualTo(201);
        homeworkId = published.json().get("id").asString();
        course = platform.course("PHYS 1", "Physics for all");
        essay = course.place("The pendulum", Map.of("homework_id", homeworkId), 20.0);
    }

    @AfterAll
    static void close() {
        platform.close();
    }

    @Test
    void aLearnerSeesTheTaskHandsInAndReadsTheReview() {
        Member ada = course.learner("Ada", "Lovelace");
        HttpResponse<String> page = homeworkPage(ada);

        assertThat(page.statusCode()).as(page.body()).isEqualTo(200);
        assertThat(page.body())
                .contains("The pendulum (pendulum)", "Ada Lovelace", "Physics for all")
                .contains("does not")
                .contains("&lt;b&gt;")
                .contains("At most one page.")
                .doesNotContain("TEACHERS-ONLY")
                .contains("You have not handed in anything yet");
        assertThat(page.headers().allValues("Set-Cookie")).isEmpty();

        HttpResponse<String> handedIn = handIn(page, new Api.Multipart().file("answer.md", "The mass cancels out."));

        assertThat(handedIn.statusCode()).as(handedIn.body()).isEqualTo(303);
        String location = handedIn.headers().firstValue("Location").orElseThrow();
        assertThat(location).contains("uploaded=");
        HttpResponse<String> confirmed = get(URI.create(tool.launchUrl()).resolve(location));
        assertThat(confirmed.body()).contains("Your files were handed in");
        String studentId = "lti:" + platformId + ":" + ada.sub();
        Api.Reply listed = school.homework().get("/v1/homeworks/" + homeworkId + "/submissions?studentId=" + studentId);
        assertThat(listed.json().get("total").asInt()).isEqualTo(1);

        // awaited through the REST API: a page reloaded every few milliseconds would spend its session's minute
        String submissionId = listed.json().get("data").get(0).get("id").asString();
        Eventually.until(
                Eventually.PATIENCE,
                () -> school.homework()
                        .get("/v1/homeworks/" + homeworkId + "/submissions/" + submissionId)
                        .json()
                        .get("status")
                        .asString()
                        .equals("reviewed"));
        HttpResponse<String> reviewed = get(URI.create(tool.launchUrl()).resolve(location));
        assertThat(reviewed.body()).contains("Grade <strong>", "Points per criterion", "Read the review and ask");
        String chatId = listed.json().get("data").get(0).get("chatId").asString();
        assertThat(reviewed.body()).contains("/chat/?chat_id=" + chatId + "&amp;token=");
    }

    @Test
    void whatTheRestUploadHandsInForTheLearnerIsTheirsOnThePage() {
        Member bob = course.learner("Bob", "Builder");
        String studentId = "lti:" + platformId + ":" + bob.sub();
        school.upload(homeworkId, studentId, "by-rest.md", "Handed in through the REST API.");

        HttpResponse<String> page = homeworkPage(bob);

        assertThat(page.body())
                .doesNotContain("You have not handed in anything yet")
                .contains("Handed in ");
    }

    @Test
    void aSubmissionWhoseChatTheTenantDeletedIsListedWithoutItsLink() {
        Member ned = course.learner("Ned", "Ludd");
        JsonNode uploaded = school.upload(homeworkId, "lti:" + platformId + ":" + ned.sub(), "kept.md", "Kept.");
        String submission = "/v1/homeworks/" + homeworkId + "/submissions/"
                + uploaded.get("id").asString();
        Eventually.until(
                Eventually.PATIENCE,
                () -> school.homework()
                        .get(submission)
                        .json()
                        .get("status")
                        .asString()
                        .equals("reviewed"));
        Api.Reply deleted =
                school.chats().delete("/api/v1/chats/" + uploaded.get("chatId").asString());
        assertThat(deleted.status()).as(deleted.toString()).isEqualTo(200);

        HttpResponse<String> page = homeworkPage(ned);

        assertThat(page.statusCode()).as(page.body()).isEqualTo(200);
        assertThat(page.body()).contains("Its review chat was deleted").doesNotContain("Read the review and ask");
    }

    @Test
    void anUploadTheEndpointWouldRefuseIsRefusedOnThePage() {
        Member cleo = course.learner("Cleo", "Patra");
        HttpResponse<String> page = homeworkPage(cleo);

        HttpResponse<String> none = handIn(page, new Api.Multipart());
        Api.Multipart eleven = new Api.Multipart();
        for (int i = 0; i < 11; i++) {
            eleven.file("part-" + i + ".md", "part " + i);
        }
        HttpResponse<String> tooMany = handIn(page, eleven);

        assertThat(none.statusCode()).isEqualTo(400);
        assertThat(none.body()).contains("Nothing was handed in");
        assertThat(tooMany.statusCode()).isEqualTo(400);
        assertThat(tooMany.body()).contains("Nothing was handed in");
        assertThat(school.homework()
                        .get("/v1/homeworks/" + homeworkId + "/submissions?studentId=lti:" + platformId + ":"
                                + cleo.sub())
                        .json()
                        .get("total")
                        .asInt())
                .isZero();
    }

    @Test
    void aForgedSessionOrALinkWithoutHomeworkOpensNoHomeworkPage() {
        HttpResponse<String> forged = get(URI.create(tool.launchUrl().replace("/launch", "/homework?session=forged")));
        assertThat(forged.statusCode()).isEqualTo(400);
        assertThat(forged.body()).contains("expired");

        Member dora = course.learner("Dora", "Explorer");
        HttpResponse<String> unknown = platform.launch(
                        tool,
                        course,
                        dora,
                        course.place(
                                "Gone",
                                Map.of(
                                        "homework_id",
                                        java.util.UUID.randomUUID().toString()),
                                null))
                .run()
                .page();
        assertThat(unknown.statusCode()).isEqualTo(200);
        assertThat(unknown.body()).contains("does not have");
    }

    @Test
    void aHandInFormSentTwiceHandsInOnce() {
        Member kim = course.learner("Kim", "Gordon");
        HttpResponse<String> page = homeworkPage(kim);

        HttpResponse<String> first = handIn(page, new Api.Multipart().file("answer.md", "Once."));
        HttpResponse<String> again = handIn(page, new Api.Multipart().file("answer.md", "Once."));
        HttpResponse<String> newPage = handIn(homeworkPage(kim), new Api.Multipart().file("answer.md", "Twice."));

        assertThat(first.statusCode()).isEqualTo(303);
        assertThat(again.statusCode()).isEqualTo(303);
        assertThat(again.headers().firstValue("Location"))
                .as("the second answer names the first's submission")
                .isEqualTo(first.headers().firstValue("Location"));
        assertThat(newPage.statusCode()).isEqualTo(303);
        assertThat(newPage.headers().firstValue("Location"))
                .isNotEqualTo(first.headers().firstValue("Location"));
        assertThat(school.homework()
                        .get("/v1/homeworks/" + homeworkId + "/submissions?studentId=lti:" + platformId + ":"
                                + kim.sub())
                        .json()
                        .get("total")
                        .asInt())
                .as("one per page's form")
                .isEqualTo(2);
    }

    @Test
    void aSessionKeepsTheLaunchWithoutTheEmailAndExpiredOnesAreRemoved(
            @Autowired JdbcClient jdbc, @Autowired LtiSessions sessions) {
        Member lee = course.learner("Lee", "Miller");
        HttpResponse<String> page = homeworkPage(lee);
        assertThat(page.statusCode()).isEqualTo(200);
        String studentId = "lti:" + platformId + ":" + lee.sub();
        assertThat(jdbc.sql("SELECT launch::text FROM lti_sessions WHERE user_id = :user")
                        .param("user", studentId)
                        .query(String.class)
                        .single())
                .contains("Lee Miller")
                .doesNotContain(lee.email());

        jdbc.sql("UPDATE lti_sessions SET expires_at = now() - interval '1 second' WHERE user_id = :user")
                .param("user", studentId)
                .update();
        sessions.removeExpired();

        assertThat(jdbc.sql("SELECT count(*) FROM lti_sessions WHERE user_id = :user")
                        .param("user", studentId)
                        .query(Integer.class)
                        .single())
                .isZero();
        assertThat(get(page.uri()).body()).contains("expired or was used");
    }

    @Test
    void aSessionWhoseLaunchThisVersionCannotReadIsAnExpiredOne(@Autowired JdbcClient jdbc) {
        Member max = course.learner("Max", "Planck");
        HttpResponse<String> page = homeworkPage(max);
        jdbc.sql(
                        "UPDATE lti_sessions SET launch = '{\"written_by\": \"another version\"}'::jsonb WHERE user_id = :user")
                .param("user", "lti:" + platformId + ":" + max.sub())
                .update();

        HttpResponse<String> again = get(page.uri());

        assertThat(again.statusCode()).isEqualTo(400);
        assertThat(again.body()).contains("expired or was used");
    }

    @Test
    void aHandInWithoutAnOpenSessionIsRefusedBeforeItsFilesAreRead() throws IOException {
        // 40 MB announced, 1 KB sent: an answer before the rest means the body was not waited for
        try (Socket socket =
                new Socket("127.0.0.1", URI.create(tool.launchUrl()).getPort())) {
            socket.setSoTimeout(10_000);
            String head = "POST /lti/homework/submissions?session=forged HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    + "Content-Type: multipart/form-data; boundary=cut\r\nContent-Length: 40000000\r\n"
                    + "Connection: close\r\n\r\n"
                    + "--cut\r\nContent-Disposition: form-data; name=\"files\"; filename=\"big.txt\"\r\n\r\n";
            OutputStream out = socket.getOutputStream();
            out.write(head.getBytes(StandardCharsets.US_ASCII));
            out.write("x".repeat(1024).getBytes(StandardCharsets.US_ASCII));
            out.flush();

            String answer = answerOf(socket);

            assertThat(answer).startsWith("HTTP/1.1 400").contains("expired or was used");
        }
    }

    @Test
    void aLearnerHandsInAHomeworkAtMostSoManyTimesAnHour() {
        Member fay = course.learner("Fay", "Wray");
        // each hand-in from the page as loaded anew: a form sent twice would hand in once
        HttpResponse<String> page = homeworkPage(fay);
        for (int i = 1; i <= HAND_INS_AN_HOUR; i++) {
            HttpResponse<String> handedIn =
                    handIn(get(page.uri()), new Api.Multipart().file("answer.md", "Attempt " + i));
            assertThat(handedIn.statusCode()).as(handedIn.body()).isEqualTo(303);
        }

        HttpResponse<String> oneMore = handIn(get(page.uri()), new Api.Multipart().file("answer.md", "One more"));
        HttpResponse<String> anotherLearner =
                handIn(homeworkPage(course.learner("Gus", "Grissom")), new Api.Multipart().file("answer.md", "Mine"));

        assertThat(oneMore.statusCode()).isEqualTo(429);
        assertThat(oneMore.headers().firstValue("Retry-After")).isPresent();
        assertThat(oneMore.body()).contains("times in the last hour");
        assertThat(school.homework()
                        .get("/v1/homeworks/" + homeworkId + "/submissions?studentId=lti:" + platformId + ":"
                                + fay.sub())
                        .json()
                        .get("total")
                        .asInt())
                .isEqualTo(HAND_INS_AN_HOUR);
        assertThat(anotherLearner.statusCode()).isEqualTo(303);
    }

    @Test
    void aHandInIsOneOfTheTenantsRestRequests() {
        HttpResponse<String> page = homeworkPage(course.learner("Hal", "Incandenza"));
        for (int attempt = 1; ; attempt++) {
            Api.Reply before = school.homework().get("/v1/homeworks/" + homeworkId);
            HttpResponse<String> handedIn = handIn(page, new Api.Multipart().file("answer.md", "Counted"));
            Api.Reply after = school.homework().get("/v1/homeworks/" + homeworkId);
            assertThat(handedIn.statusCode()).isEqualTo(303);
            long spent = remaining(before) - remaining(after);
            if (spent >= 0 || attempt == 2) {
                // this GET, and the hand-in between (a negative count is a new minute begun meanwhile: once more)
                assertThat(spent).isEqualTo(2);
                return;
            }
        }
    }

    @Test
    void aPageMakesAtMostItsMinutesRequests() {
        HttpResponse<String> page = homeworkPage(course.learner("Ida", "Noddack"));
        URI again = page.uri();
        int answered = 1;
        HttpResponse<String> last = page;
        while (last.statusCode() == 200 && answered <= 200) {
            last = get(again);
            answered++;
        }

        assertThat(last.statusCode()).isEqualTo(429);
        assertThat(answered).as("requests until refused").isEqualTo(61);
        assertThat(last.body()).contains("too many requests");
        assertThat(homeworkPage(course.learner("Jo", "March")).statusCode())
                .as("another learner's page")
                .isEqualTo(200);
    }

    /** What the server answered, up to the end of its page (it may keep the connection open for the rest). */
    private static String answerOf(Socket socket) throws IOException {
        StringBuilder answer = new StringBuilder();
        byte[] buffer = new byte[4096];
        int read;
        while (!answer.toString().contains("</html>")
                && (read = socket.getInputStream().read(buffer)) > 0) {
            answer.append(new String(buffer, 0, read, StandardCharsets.UTF_8));
        }
        return answer.toString();
    }

    private static long remaining(Api.Reply reply) {
        return Long.parseLong(java.util.Objects.requireNonNull(reply.header("X-RateLimit-Remaining")));
    }

    private static HttpResponse<String> homeworkPage(Member learner) {
        return new LearnerInTheLms(platform, tool, course).homeworkPage(learner, essay);
    }

    private static HttpResponse<String> handIn(HttpResponse<String> page, Api.Multipart files) {
        assertThat(LearnerInTheLms.handInForm(page).action().getQuery())
                .as("the session is in the action's query")
                .startsWith("session=");
        return LearnerInTheLms.handIn(page, files);
    }

    private static HttpResponse<String> get(URI uri) {
        return Launch.send(HttpRequest.newBuilder(uri).GET());
    }
}
