package com.chatreview.lti;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.lti.platform.Course;
import com.chatreview.lti.platform.EmulatedPlatform;
import com.chatreview.lti.platform.HtmlForm;
import com.chatreview.lti.platform.Launch;
import com.chatreview.lti.platform.ResourceLink;
import com.chatreview.support.IntegrationTest;
import com.chatreview.support.TestService;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Login CSRF (docs/lti.md): with a platform that keeps data for the tool in the browser (LTI platform storage), a
 * launch opens only in the browser that started its login: the login page puts a value in the platform's storage,
 * the launch page reads it back. A launch shown in another browser (which holds no such value) is ended, and once a
 * platform has used its storage, a login that leaves it out is refused.
 */
@IntegrationTest
class LtiPlatformStorageIntegrationTests {

    private static EmulatedPlatform platform;
    private static EmulatedPlatform.Tool tool;
    private static Course course;
    private static ResourceLink essay;

    @BeforeAll
    static void aLinkOnAPlatformWithStorage(TestService service) throws IOException {
        RegisteredTool registered = RegisteredTool.in(service, "lti-storage");
        platform = registered.platform();
        tool = registered.tool();
        course = platform.course("STO 1", "Stored");
        essay = course.place(
                "The essay", Map.of("homework_id", registered.school().publishHomework("stored-essay")), 10.0);
    }

    @AfterAll
    static void close() {
        platform.close();
    }

    @Test
    void theBrowserThatStartedTheLoginOpensTheLaunch() {
        Launch.Result launched = platform.launch(tool, course, course.learner("Ada", "Lovelace"), essay)
                .withPlatformStorage()
                .run();

        assertThat(launched.login().statusCode()).isEqualTo(200);
        assertThat(launched.login()
                        .headers()
                        .firstValue("Content-Security-Policy")
                        .orElseThrow())
                .contains("script-src 'self'", "form-action 'self' " + platform.issuer());
        String stored = Objects.requireNonNull(launched.storedValue());
        HttpResponse<String> checking = launched.page();
        assertThat(checking.statusCode()).as(checking.body()).isEqualTo(200);
        HtmlForm bound = HtmlForm.in(checking.body(), checking.uri());
        assertThat(get(homeworkPageOf(bound.field("session"))).statusCode())
                .as("no page before the browser is shown to be the login's")
                .isEqualTo(400);

        HttpResponse<String> opened = Launch.post(bound.set("value", stored));

        assertThat(opened.statusCode()).as(opened.body()).isEqualTo(303);
        HttpResponse<String> page = get(URI.create(tool.launchUrl())
                .resolve(opened.headers().firstValue("Location").orElseThrow()));
        assertThat(page.statusCode()).as(page.body()).isEqualTo(200);
        assertThat(page.body()).contains("Ada Lovelace");
    }

    @Test
    void aLaunchShownInAnotherBrowserIsEnded() {
        // the attacker's own login and launch, whose id_token another browser is made to post
        Launch.Result attackers = platform.launch(tool, course, course.learner("Mallory", "Mole"), essay)
                .withPlatformStorage()
                .run();
        HtmlForm bound = HtmlForm.in(attackers.page().body(), attackers.page().uri());

        // the victim's browser reads nothing from its storage: the page posts no value
        HttpResponse<String> refused = Launch.post(bound.set("value", ""));
        HttpResponse<String> thenWithTheValue =
                Launch.post(bound.set("value", Objects.requireNonNull(attackers.storedValue())));

        assertThat(refused.statusCode()).isEqualTo(400);
        assertThat(refused.body()).contains("did not start in this browser");
        assertThat(thenWithTheValue.statusCode()).as("the launch was ended").isEqualTo(400);
        assertThat(get(homeworkPageOf(bound.field("session"))).statusCode()).isEqualTo(400);
    }

    @Test
    void onceThePlatformUsedItsStorageALoginWithoutItIsRefused() {
        platform.launch(tool, course, course.learner("Bo", "Diddley"), essay)
                .withPlatformStorage()
                .run();

        Launch.Result without = platform.launch(tool, course, course.learner("Cy", "Young"), essay)
                .run();

        assertThat(without.login().statusCode()).isEqualTo(400);
        assertThat(without.login().body()).contains("lti_storage_target");
    }

    @Test
    void neitherALoginNorALaunchThatFailedMarksThePlatformAsKeepingStorage(TestService service) throws IOException {
        // an LMS without platform storage (Moodle, Brightspace, Blackboard), and a stranger's login that names a
        // storage frame: only a launch the platform signed may mark it, or one stranger locks every learner out
        RegisteredTool unmarked = RegisteredTool.in(service, "lti-storage-unmarked");
        try {
            Course other = unmarked.platform().course("STO 2", "Unmarked");
            ResourceLink link = other.place(
                    "The essay", Map.of("homework_id", unmarked.school().publishHomework("unmarked-essay")), 10.0);
            Launch.Result stranger = unmarked.platform()
                    .launch(unmarked.tool(), other, other.learner("Mal", "Icious"), link)
                    .withPlatformStorage()
                    .signedWith(EmulatedPlatform.foreignKey())
                    .run();
            assertThat(stranger.login().statusCode())
                    .as("the login page that stores")
                    .isEqualTo(200);
            assertThat(stranger.page().statusCode()).as("the forged launch").isEqualTo(400);

            Launch.Result learner = unmarked.platform()
                    .launch(unmarked.tool(), other, other.learner("Ada", "Lovelace"), link)
                    .run();

            assertThat(learner.login().statusCode()).as(learner.login().body()).isEqualTo(302);
            assertThat(learner.page().statusCode()).as(learner.page().body()).isEqualTo(303);
        } finally {
            unmarked.platform().close();
        }
    }

    private URI homeworkPageOf(String session) {
        return URI.create(tool.launchUrl()).resolve("/lti/homework?session=" + session);
    }

    private static HttpResponse<String> get(URI uri) {
        return Launch.send(HttpRequest.newBuilder(uri).GET());
    }
}
