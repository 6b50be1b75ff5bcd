package com.chatreview.lti;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.lti.platform.Course;
import com.chatreview.lti.platform.EmulatedPlatform;
import com.chatreview.lti.platform.Launch;
import com.chatreview.lti.platform.Member;
import com.chatreview.lti.platform.ResourceLink;
import com.chatreview.support.Api;
import com.chatreview.support.IntegrationTest;
import com.chatreview.support.SingleNodeToo;
import com.chatreview.support.TestService;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.Date;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The launch, against the emulated platform over real HTTP: a registered platform's learner gets in with a browser
 * that keeps no cookie (an iframe with third-party cookies blocked), and each check of the id_token, failing, shows
 * a page that says which, with no session and no stack trace.
 */
@SingleNodeToo
@IntegrationTest
class LtiLaunchIntegrationTests {

    private static EmulatedPlatform platform;
    private static EmulatedPlatform.Tool tool;
    private static Course course;
    private static Member ada;
    private static ResourceLink essay;

    @BeforeAll
    static void aRegisteredPlatform(TestService service) throws IOException {
        RegisteredTool registered = RegisteredTool.in(service, "lti-launch");
        platform = registered.platform();
        tool = registered.tool();
        course = platform.course("MATH 101", "Algebra for everyone");
        ada = course.learner("Ada", "Lovelace");
        essay = course.place("Essay on functions", Map.of("homework_id", "hw-essay"), 20.0);
    }

    @AfterAll
    static void close() {
        platform.close();
    }

    @Test
    void aLearnerLaunchesWithoutAnyCookie() {
        Launch.Result launch = platform.launch(tool, course, ada, essay).run();

        assertThat(launch.login().statusCode()).isEqualTo(302);
        assertThat(launch.login().headers().allValues("Set-Cookie")).isEmpty();
        HttpResponse<String> page = launch.page();
        assertThat(page.statusCode()).as(page.body()).isEqualTo(200);
        assertThat(page.headers().allValues("Set-Cookie")).isEmpty();
        assertThat(page.headers().firstValue("Content-Type"))
                .hasValueSatisfying(type -> assertThat(type).startsWith("text/html"));
        assertThat(page.headers().firstValue("Content-Security-Policy"))
                .as("framed by the platform alone: framed elsewhere, its session would act for a victim")
                .hasValueSatisfying(policy -> assertThat(policy)
                        .endsWith("frame-ancestors " + platform.issuer() + " "
                                + platform.issuer().replace("127.0.0.1", "localhost"))
                        .doesNotContain("*"));
        assertThat(page.body()).contains("Essay on functions", "Ada Lovelace", "Algebra for everyone", "hw-essay");
        HttpResponse<String> style =
                send(HttpRequest.newBuilder(URI.create(tool.launchUrl().replace("/launch", "/page.css")))
                        .GET());
        assertThat(style.statusCode()).isEqualTo(200);
        assertThat(style.headers().firstValue("Content-Type"))
                .hasValueSatisfying(type -> assertThat(type).startsWith("text/css"));
    }

    @Test
    void aLoginByGetLaunchesToo() {
        HttpResponse<String> page =
                platform.launch(tool, course, ada, essay).loginByGet().run().page();

        assertThat(page.statusCode()).as(page.body()).isEqualTo(200);
    }

    @Test
    void aLoginWithoutClientIdAndAnAudienceListWithoutAzpLaunchToo() {
        HttpResponse<String> page = platform.launch(tool, course, ada, essay)
                .withoutClientId()
                .tamper(claims ->
                        claims.audience(java.util.List.of(tool.clientId())).claim("azp", null))
                .run()
                .page();

        assertThat(page.statusCode()).as(page.body()).isEqualTo(200);
    }

    @Test
    void aUserIdLongerThanStudentIdsTakeIsRefused() {
        assertRefused(tampered(claims -> claims.subject("u".repeat(250))), "characters long");
    }

    @Test
    void whatAnyoneMayPostAsThePlatformsErrorIsShownBrieflyAndEscaped() {
        HttpResponse<String> page = Launch.post(new com.chatreview.lti.platform.HtmlForm(
                URI.create(tool.launchUrl()),
                Map.of("error", "login_required", "error_description", "<script>alert(1)</script>" + "x".repeat(500))));

        assertRefused(page, "login_required");
        assertThat(page.body())
                .doesNotContain("<script>")
                .contains("&lt;script&gt;")
                .doesNotContain("x".repeat(200));
    }

    /** The addresses of one IPv6 /64 are one network's: spreading failures over them spends the network's budget. */
    @Test
    void failedLoginsFromManyAddressesOfOneIpv6NetworkLockTheNetworkOut() {
        String network = "2001:db8:" + Integer.toHexString((int) (Math.random() * 0xffff)) + ":7:";
        URI broken = URI.create(tool.loginUrl() + "?iss=" + platform.issuer() + "&target_link_uri=" + tool.launchUrl());
        for (int i = 0; i < 300; i++) {
            assertThat(send(HttpRequest.newBuilder(broken)
                                    .header("X-Forwarded-For", network + Integer.toHexString(i + 1) + ":0:0:1")
                                    .GET())
                            .statusCode())
                    .isEqualTo(400);
        }
        URI login = URI.create(tool.loginUrl() + "?iss=" + platform.issuer() + "&login_hint=someone&target_link_uri="
                + tool.launchUrl());
        assertThat(send(HttpRequest.newBuilder(login)
                                .header("X-Forwarded-For", network + "ffff:0:0:1")
                                .GET())
                        .statusCode())
                .as("another address of the same /64")
                .isEqualTo(429);
        assertThat(send(HttpRequest.newBuilder(login)
                                .header("X-Forwarded-For", network.replace(":7:", ":8:") + "1:0:0:1")
                                .GET())
                        .statusCode())
                .as("the next /64")
                .isEqualTo(302);
    }

    @Test
    void failedLoginsLockAnAddressOutForTheMinuteButSuccessfulOnesNever() {
        String network = "10.99." + (int) (Math.random() * 250) + ".";
        URI login = URI.create(tool.loginUrl() + "?iss=" + platform.issuer() + "&login_hint=someone&target_link_uri="
                + tool.launchUrl());
        for (int i = 0; i < 310; i++) {
            assertThat(send(HttpRequest.newBuilder(login)
                                    .header("X-Forwarded-For", network + "1")
                                    .GET())
                            .statusCode())
                    .as("a class behind one address, login " + (i + 1))
                    .isEqualTo(302);
        }

        URI broken = URI.create(tool.loginUrl() + "?iss=" + platform.issuer() + "&target_link_uri=" + tool.launchUrl());
        for (int i = 0; i < 300; i++) {
            assertThat(send(HttpRequest.newBuilder(broken)
                                    .header("X-Forwarded-For", network + "2")
                                    .GET())
                            .statusCode())
                    .as("failed login " + (i + 1))
                    .isEqualTo(400);
        }
        HttpResponse<String> refused = send(HttpRequest.newBuilder(login)
                .header("X-Forwarded-For", network + "2")
                .GET());
        assertThat(refused.statusCode())
                .as("past 300 failures, even a good login")
                .isEqualTo(429);
        assertThat(refused.headers().firstValue("Retry-After")).isPresent();
        assertThat(refused.body()).contains("Too many launches");
        assertThat(send(HttpRequest.newBuilder(login)
                                .header("X-Forwarded-For", network + "3")
                                .GET())
                        .statusCode())
                .as("another address")
                .isEqualTo(302);
    }

    @Test
    void theSameLaunchPostedAgainIsRefused() {
        Launch.Result launch = platform.launch(tool, course, ada, essay).run();
        assertThat(launch.page().statusCode()).isEqualTo(200);

        HttpResponse<String> replayed = Launch.post(launch.form());

        assertRefused(replayed, "used already");
    }

    @Test
    void aKeyThePlatformRotatedToIsFetchedWhenALaunchNamesIt() {
        assertThat(platform.launch(tool, course, ada, essay).run().page().statusCode())
                .isEqualTo(200);
        platform.rotateKey();
        try {
            HttpResponse<String> page =
                    platform.launch(tool, course, ada, essay).run().page();

            assertThat(page.statusCode()).as(page.body()).isEqualTo(200);
        } finally {
            platform.retireOldKeys();
        }
    }

    @Test
    void aSignatureByAnotherKeyIsRefused() {
        assertRefused(
                platform.launch(tool, course, ada, essay)
                        .signedWith(platform.impostorKey())
                        .run()
                        .page(),
                "signature does not verify");
        assertRefused(
                platform.launch(tool, course, ada, essay)
                        .signedWith(EmulatedPlatform.foreignKey())
                        .run()
                        .page(),
                "does not publish");
    }

    @Test
    void anUnsignedIdTokenOneSignedWithTheSharedSecretAlgorithmOrOneNamingNoKeyIsRefused() throws Exception {
        HttpResponse<String> unsigned = platform.launch(tool, course, ada, essay)
                .encodedAs(claims -> new com.nimbusds.jwt.PlainJWT(claims).serialize())
                .run()
                .page();
        assertRefused(unsigned, "");
        assertThat(unsigned.body()).contains("not a signed JWT");

        // the classic confusion: HMAC keyed with the platform's public key, which anyone can fetch
        byte[] publicKey = platform.publicSigningKey().toRSAPublicKey().getEncoded();
        HttpResponse<String> hmac = platform.launch(tool, course, ada, essay)
                .encodedAs(claims -> {
                    try {
                        com.nimbusds.jwt.SignedJWT jwt = new com.nimbusds.jwt.SignedJWT(
                                new com.nimbusds.jose.JWSHeader.Builder(com.nimbusds.jose.JWSAlgorithm.HS256)
                                        .keyID(platform.publicSigningKey().getKeyID())
                                        .build(),
                                claims);
                        jwt.sign(new com.nimbusds.jose.crypto.MACSigner(publicKey));
                        return jwt.serialize();
                    } catch (com.nimbusds.jose.JOSEException e) {
                        throw new IllegalStateException(e);
                    }
                })
                .run()
                .page();
        assertRefused(hmac, "");
        assertThat(hmac.body()).contains("must be signed with RS256", "HS256");

        HttpResponse<String> noKid = platform.launch(tool, course, ada, essay)
                .encodedAs(platform::signedNamingNoKey)
                .run()
                .page();
        assertRefused(noKid, "");
        assertThat(noKid.body()).contains("names no key (kid)");
    }

    @Test
    void anExpiredIdTokenIsRefused() {
        Date past = Date.from(Instant.now().minusSeconds(600));
        assertRefused(tampered(claims -> claims.issueTime(past).expirationTime(past)), "expired");
    }

    @Test
    void anIdTokenIssuedInTheFutureIsRefused() {
        Date ahead = Date.from(Instant.now().plusSeconds(600));
        assertRefused(tampered(claims -> claims.issueTime(ahead).expirationTime(ahead)), "in the future");
    }

    @Test
    void anIdTokenForAnotherToolIsRefused() {
        assertRefused(tampered(claims -> claims.audience("another-tool")), "another tool");
        assertRefused(
                tampered(claims -> claims.audience(java.util.List.of(tool.clientId(), "another-tool"))
                        .claim("azp", "another-tool")),
                "authorized party");
    }

    @Test
    void anIdTokenOfAnotherIssuerIsRefused() {
        assertRefused(tampered(claims -> claims.issuer("https://elsewhere.example")), "issuer");
    }

    @Test
    void anIdTokenWithAnotherNonceIsRefused() {
        assertRefused(tampered(claims -> claims.claim("nonce", "another-nonce")), "nonce");
    }

    @Test
    void anUnknownDeploymentIsRefused() {
        assertRefused(
                tampered(claims ->
                        claims.claim("https://purl.imsglobal.org/spec/lti/claim/deployment_id", "deployment-unknown")),
                "deployment-unknown");
    }

    @Test
    void aVersionOtherThanLti13IsRefused() {
        assertRefused(
                tampered(claims -> claims.claim("https://purl.imsglobal.org/spec/lti/claim/version", "1.1.0")),
                "1.3.0");
    }

    @Test
    void aMessageOfAnotherTypeIsRefused() {
        assertRefused(
                tampered(claims -> claims.claim(
                        "https://purl.imsglobal.org/spec/lti/claim/message_type", "LtiSubmissionReviewRequest")),
                "LtiSubmissionReviewRequest");
    }

    @Test
    void theLmsSiteTheLaunchNamesMayFrameThePagesTooButNoOtherSite() {
        // Canvas: the issuer is canvas.instructure.com, the school's site (which frames the tool) another domain
        HttpResponse<String> page = platform.launch(tool, course, ada, essay)
                .tamper(claims -> claims.claim(
                        "https://purl.imsglobal.org/spec/lti/claim/launch_presentation",
                        Map.of("return_url", "https://school.lms.example/courses/7/done", "document_target", "iframe")))
                .run()
                .page();

        assertThat(page.statusCode()).as(page.body()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Security-Policy"))
                .hasValueSatisfying(policy -> assertThat(policy)
                        .endsWith("frame-ancestors " + platform.issuer() + " https://school.lms.example"));
    }

    @Test
    void anotherTargetLinkThanTheLoginsIsRefused() {
        assertRefused(
                tampered(claims -> claims.claim(
                        "https://purl.imsglobal.org/spec/lti/claim/target_link_uri", "https://elsewhere.example/x")),
                "target_link_uri");
    }

    @Test
    void aPlatformNoTenantRegisteredIsToldSo() throws IOException {
        try (EmulatedPlatform stranger = new EmulatedPlatform()) {
            String base = "http://127.0.0.1:" + URI.create(tool.loginUrl()).getPort();
            EmulatedPlatform.Tool unregistered =
                    stranger.register(base + "/lti/login", base + "/lti/launch", base + "/lti/jwks");
            Course elsewhere = stranger.course("BIO", "Biology");
            Member bob = elsewhere.learner("Bob", "Builder");

            Launch.Result launch = stranger.launch(unregistered, elsewhere, bob, elsewhere.place("Lab", Map.of(), null))
                    .run();

            assertRefused(launch.login(), "not registered");
        }
    }

    @Test
    void oddRequestsGetAPageNeverAFailure() {
        String launchUrl = tool.launchUrl();
        for (String form : new String[] {
            "", "id_token=x&state=y", "id_token=a.b.c&state=" + "s".repeat(5000), "state=only", "id_token=%FF%FE"
        }) {
            HttpResponse<String> answer =
                    Launch.post(new com.chatreview.lti.platform.HtmlForm(URI.create(launchUrl), parse(form)));
            assertThat(answer.statusCode()).as(form).isEqualTo(400);
            assertThat(answer.body()).as(form).doesNotContain("Exception", "at com.");
        }
        HttpResponse<String> login =
                send(HttpRequest.newBuilder(URI.create(tool.loginUrl() + "?iss=" + platform.issuer()))
                        .GET());
        assertRefused(login, "login_hint");
    }

    @Test
    void theToolPublishesTheRegistrationsKeys() {
        HttpResponse<String> jwks =
                send(HttpRequest.newBuilder(URI.create(tool.jwksUrl())).GET());

        assertThat(jwks.statusCode()).isEqualTo(200);
        var keys = Api.JSON.readTree(jwks.body()).get("keys");
        assertThat(keys.size()).isGreaterThanOrEqualTo(1);
        keys.forEach(key -> {
            assertThat(key.get("kty").asString()).isEqualTo("RSA");
            assertThat(key.get("alg").asString()).isEqualTo("RS256");
            assertThat(key.has("d")).as("no private part").isFalse();
        });
    }

    private static HttpResponse<String> tampered(Consumer<com.nimbusds.jwt.JWTClaimsSet.Builder> tampering) {
        return platform.launch(tool, course, ada, essay).tamper(tampering).run().page();
    }

    private static void assertRefused(HttpResponse<String> page, String reason) {
        assertThat(page.statusCode()).as(page.body()).isEqualTo(400);
        assertThat(page.headers().firstValue("Content-Security-Policy"))
                .as("a refusal acts for no one: the LMS may show it in any frame")
                .hasValueSatisfying(policy -> assertThat(policy).endsWith("frame-ancestors *"));
        assertThat(page.headers().firstValue("Content-Type"))
                .hasValueSatisfying(type -> assertThat(type).startsWith("text/html"));
        assertThat(page.headers().allValues("Set-Cookie")).isEmpty();
        assertThat(page.body()).contains("could not be opened", reason).doesNotContain("Exception", "at com.");
    }

    private static Map<String, String> parse(String form) {
        Map<String, String> fields = new java.util.LinkedHashMap<>();
        for (String pair : form.split("&")) {
            if (!pair.isEmpty()) {
                int equals = pair.indexOf('=');
                fields.put(
                        pair.substring(0, equals < 0 ? pair.length() : equals),
                        equals < 0
                                ? ""
                                : java.net.URLDecoder.decode(
                                        pair.substring(equals + 1), java.nio.charset.StandardCharsets.ISO_8859_1));
            }
        }
        return fields;
    }

    private static HttpResponse<String> send(HttpRequest.Builder request) {
        try {
            return java.net.http.HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
