package com.chatreview.lti;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.lti.platform.Course;
import com.chatreview.lti.platform.EmulatedPlatform;
import com.chatreview.lti.platform.Fault;
import com.chatreview.lti.platform.Launch;
import com.chatreview.lti.platform.ResourceLink;
import com.chatreview.lti.platforms.LtiRegistrations;
import com.chatreview.support.Api;
import com.chatreview.support.Eventually;
import com.chatreview.support.IntegrationTest;
import com.chatreview.support.TestService;
import com.chatreview.support.TestTenant;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;

/**
 * Dynamic Registration (docs/lti.md): a tenant's single-use link, opened by the LMS, registers the tool there and
 * the platform for the tenant in one step; learners launch it at once.
 */
@IntegrationTest
class LtiDynamicRegistrationIntegrationTests {

    private EmulatedPlatform platform;
    private TestTenant school;

    @BeforeEach
    void aPlatformAndATenant(TestService service) throws java.io.IOException {
        platform = new EmulatedPlatform();
        school = service.newTenant("lti-dynamic-registration");
    }

    @AfterEach
    void close() {
        platform.close();
    }

    @Test
    void theLmsOpensTheTenantsLinkAndTheToolIsRegisteredOnBothSides() {
        String link = registrationLink();

        EmulatedPlatform.DynamicRegistration registration = platform.registerDynamically(link);

        assertThat(registration.page().statusCode())
                .as(registration.page().body())
                .isEqualTo(200);
        assertThat(registration.page().body()).contains("The tool is registered", "/lti/registered.js");
        EmulatedPlatform.Tool tool = Objects.requireNonNull(registration.tool());
        assertThat(tool.launchUrl()).endsWith("/lti/launch");
        assertThat(tool.loginUrl()).endsWith("/lti/login");
        JsonNode platforms = school.chats().get("/api/v1/lti/platforms").json().get("platforms");
        assertThat(platforms.size()).isEqualTo(1);
        assertThat(tool.jwksUrl())
                .as("the LMS was given the registration's own keys")
                .endsWith("/lti/platforms/" + platforms.get(0).get("id").asString() + "/jwks")
                .isEqualTo(platforms.get(0).get("tool_jwks_url").asString());
        assertThat(platforms.get(0).get("issuer").asString()).isEqualTo(platform.issuer());
        assertThat(platforms.get(0).get("client_id").asString()).isEqualTo(tool.clientId());
        assertThat(platforms.get(0).get("deployment_ids").get(0).asString()).isEqualTo(tool.deploymentId());

        Course course = platform.course("DYN 1", "Registered in one step");
        ResourceLink essay =
                course.place("Essay", Map.of("homework_id", school.publishHomework("dynamic-essay")), 10.0);
        HttpResponse<String> launched = platform.launch(tool, course, course.learner("Ada", "Lovelace"), essay)
                .run()
                .page();
        assertThat(launched.statusCode()).as(launched.body()).isEqualTo(303);
    }

    @Test
    void aLinkRegistersOnceAndARefusedRegistrationLeavesItUsable() {
        String link = registrationLink();

        HttpResponse<String> forged = Launch.send(HttpRequest.newBuilder(URI.create(link + "&openid_configuration="
                        + URLEncoder.encode(
                                platform.issuer() + "/.well-known/openid-configuration", StandardCharsets.UTF_8)
                        + "&registration_token=not-the-platforms"))
                .GET());
        EmulatedPlatform.DynamicRegistration registered = platform.registerDynamically(link);
        EmulatedPlatform.DynamicRegistration again = platform.registerDynamically(link);

        assertThat(forged.statusCode()).as(forged.body()).isEqualTo(400);
        assertThat(forged.body())
                .contains("The LMS refused the tool", "answered 401")
                .as("what the LMS said is not repeated")
                .doesNotContain("registration token is missing");
        assertThat(registered.page().statusCode()).as(registered.page().body()).isEqualTo(200);
        assertThat(again.page().statusCode()).isEqualTo(400);
        assertThat(again.page().body()).contains("expired or was used");
        assertThat(school.chats()
                        .get("/api/v1/lti/platforms")
                        .json()
                        .get("platforms")
                        .size())
                .isEqualTo(1);
    }

    @Test
    void theLmsIsAskedWithNoTransactionOpenAndTheLinkIsTakenMeanwhile(@Autowired JdbcClient jdbc) throws Exception {
        String link = registrationLink();
        platform.inject(EmulatedPlatform.Endpoint.REGISTRATION, Fault.slow(Duration.ofSeconds(3)));

        OpenTransactions.Watched<HttpResponse<String>> watched = OpenTransactions.whileRunning(jdbc, () -> {
            CompletableFuture<EmulatedPlatform.DynamicRegistration> first = CompletableFuture.supplyAsync(
                    () -> platform.registerDynamically(link),
                    task -> Thread.ofVirtual().start(task));
            // the tool read the LMS's configuration: it is posting its registration, which the LMS is slow to take
            Eventually.until(
                    Duration.ofSeconds(5),
                    () -> !platform.exchanges(EmulatedPlatform.Endpoint.OPENID_CONFIGURATION)
                            .isEmpty());
            HttpResponse<String> meanwhile = platform.registerDynamically(link).page();
            HttpResponse<String> registered = first.get().page();
            assertThat(registered.statusCode()).as(registered.body()).isEqualTo(200);
            return meanwhile;
        });

        assertThat(watched.result().statusCode()).as(watched.result().body()).isEqualTo(503);
        assertThat(watched.result().body()).contains("being used by another registration");
        assertThat(watched.longestIdle())
                .as("the longest a transaction sat idle while the LMS took its time")
                .isLessThan(Duration.ofSeconds(1));
        assertThat(school.chats()
                        .get("/api/v1/lti/platforms")
                        .json()
                        .get("platforms")
                        .size())
                .isEqualTo(1);
    }

    @Test
    void theConfigurationMustBeTheIssuersNotAnyUrlItsNameBegins() {
        assertThat(LtiRegistrations.isUnder(
                        "https://lms.example/.well-known/openid-configuration", "https://lms.example"))
                .isTrue();
        assertThat(LtiRegistrations.isUnder("https://lms.example/moodle/lti/openid", "https://lms.example/moodle/"))
                .isTrue();
        assertThat(LtiRegistrations.isUnder("https://lms.example.attacker.test/openid", "https://lms.example"))
                .isFalse();
        assertThat(LtiRegistrations.isUnder("https://lms.example/moodle2/openid", "https://lms.example/moodle"))
                .isFalse();
    }

    @Test
    void aLinkOfNoTenantRegistersNothing() {
        HttpResponse<String> page = platform.registerDynamically(
                        registrationLink().replaceAll("link=[^&]+", "link=made-up"))
                .page();

        assertThat(page.statusCode()).isEqualTo(400);
        assertThat(page.body()).contains("expired or was used");
    }

    private String registrationLink() {
        Api.Reply created = school.chats().post("/api/v1/lti/platforms/registration-links", "");
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        assertThat(created.json().get("expires_at").asString()).isNotBlank();
        return created.json().get("url").asString();
    }
}
