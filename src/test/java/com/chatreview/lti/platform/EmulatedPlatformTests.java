package com.chatreview.lti.platform;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.lti.platform.EmulatedPlatform.Endpoint;
import com.chatreview.lti.platform.EmulatedPlatform.Exchange;
import com.nimbusds.jwt.SignedJWT;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The platform emulator, checked against the 1EdTech specifications' examples (in {@code src/test/resources/lti})
 * and against what Moodle refuses, through a tool written here from the specifications alone ({@link ExampleTool}):
 * the emulator is the peer the service's LTI tests trust, so it is tested first.
 */
class EmulatedPlatformTests {

    private static EmulatedPlatform platform;
    private static ExampleTool tool;
    private static EmulatedPlatform.Tool registered;
    private static Course course;
    private static Member ada;
    private static Member teacher;

    @BeforeAll
    static void platformWithACourse() throws IOException {
        platform = new EmulatedPlatform();
        tool = new ExampleTool(platform);
        registered = tool.registerOn(platform);
        course = platform.course("MATH 101", "Algebra for everyone");
        ada = course.learner("Ada", "Lovelace");
        teacher = course.instructor("Grace", "Hopper");
    }

    @AfterAll
    static void close() {
        tool.close();
        platform.close();
    }

    @AfterEach
    void toolSendsRightRequestsAgain() {
        tool.authenticationOverrides.clear();
    }

    // --- launch ---

    @Test
    void aLaunchCarriesEveryClaimOfTheSpecificationsExampleInItsShape() {
        ResourceLink link = course.place("Essay on functions", Map.of("homework_id", "hw-1"), 20.0);

        HttpResponse<String> page =
                platform.launch(registered, course, ada, link).run().page();

        assertThat(page.statusCode()).as(page.body()).isEqualTo(200);
        JsonNode claims = EmulatedPlatform.JSON.readTree(page.body());
        JsonNode example = resource("resource-link-launch.json");
        for (String name : example.propertyNames()) {
            assertThat(claims.has(name)).as("claim %s", name).isTrue();
            assertThat(claims.get(name).getNodeType())
                    .as("claim %s", name)
                    .isEqualTo(example.get(name).getNodeType());
        }
        for (String name : example.get(Lti.CONTEXT).propertyNames()) {
            assertThat(claims.get(Lti.CONTEXT).has(name)).as("context.%s", name).isTrue();
        }
        assertThat(claims.get("iss").asString()).isEqualTo(platform.issuer());
        assertThat(claims.get("aud").asString()).isEqualTo(registered.clientId());
        assertThat(claims.get("sub").asString()).isEqualTo(ada.sub());
        assertThat(claims.get(Lti.MESSAGE_TYPE).asString()).isEqualTo("LtiResourceLinkRequest");
        assertThat(claims.get(Lti.DEPLOYMENT_ID).asString()).isEqualTo(registered.deploymentId());
        assertThat(claims.get(Lti.TARGET_LINK_URI).asString()).isEqualTo(registered.launchUrl());
        assertThat(claims.get(Lti.RESOURCE_LINK).get("id").asString()).isEqualTo(link.id());
        assertThat(claims.get(Lti.ROLES).get(0).asString()).isEqualTo(Lti.LEARNER);
        assertThat(claims.get(Lti.CUSTOM).get("homework_id").asString()).isEqualTo("hw-1");
        JsonNode ags = claims.get(Lti.AGS_ENDPOINT);
        assertThat(ags.get("lineitems").asString()).isEqualTo(course.lineItemsUrl());
        assertThat(ags.get("lineitem").asString()).isEqualTo(link.lineItem().id());
        assertThat(claims.get("exp").asLong() - claims.get("iat").asLong()).isEqualTo(60);
    }

    @Test
    void aLoginInitiatedByGetLaunchesToo() {
        ResourceLink link = course.place("Worksheet", Map.of(), null);

        HttpResponse<String> page = platform.launch(registered, course, ada, link)
                .loginByGet()
                .run()
                .page();

        assertThat(page.statusCode()).as(page.body()).isEqualTo(200);
        JsonNode claims = EmulatedPlatform.JSON.readTree(page.body());
        assertThat(claims.has(Lti.CUSTOM)).isFalse();
        assertThat(claims.get(Lti.AGS_ENDPOINT).has("lineitem")).isFalse();
    }

    @Test
    void theAuthorizationEndpointRefusesWhatTheSecurityFrameworkForbids() {
        ResourceLink link = course.place("Quiz", Map.of(), null);
        Map<String, String> wrongParameters = Map.of(
                "response_mode", "query",
                "response_type", "code",
                "scope", "profile",
                "prompt", "login",
                "nonce", "",
                "login_hint", teacher.sub());
        wrongParameters.forEach((name, value) -> {
            tool.authenticationOverrides.clear();
            tool.authenticationOverrides.put(name, value);

            HttpResponse<String> page =
                    platform.launch(registered, course, ada, link).run().page();

            assertThat(page.statusCode()).as(name).isEqualTo(401);
            assertThat(page.body()).as(name).startsWith("invalid_request:");
        });
        tool.authenticationOverrides.clear();

        tool.authenticationOverrides.put("client_id", "client-unknown");
        assertThat(platform.launch(registered, course, ada, link)
                        .run()
                        .authorization()
                        .statusCode())
                .isEqualTo(400);
        tool.authenticationOverrides.put("client_id", registered.clientId());
        tool.authenticationOverrides.put("redirect_uri", "https://evil.example/launch");
        assertThat(platform.launch(registered, course, ada, link)
                        .run()
                        .authorization()
                        .statusCode())
                .isEqualTo(400);
    }

    @Test
    void aMessageHintAuthenticatesOnce() {
        ResourceLink link = course.place("Lab report", Map.of(), null);
        Launch.Result first = platform.launch(registered, course, ada, link).run();
        assertThat(first.page().statusCode()).isEqualTo(200);

        HttpResponse<String> again =
                Launch.send(HttpRequest.newBuilder(first.authorization().uri()).GET());

        HtmlForm form = HtmlForm.in(again.body(), again.uri());
        assertThat(form.fields()).doesNotContainKey("id_token");
        assertThat(form.field("error_description")).contains("lti_message_hint");
    }

    @Test
    void aTamperedLaunchIsSignedAsTheTestSays() throws Exception {
        ResourceLink link = course.place("Poster", Map.of(), null);
        var forger = EmulatedPlatform.newKey();

        Launch.Result forged = platform.launch(registered, course, ada, link)
                .tamper(claims -> claims.audience("someone-else").claim(Lti.VERSION, "1.1"))
                .signedWith(forger)
                .run();

        SignedJWT idToken = SignedJWT.parse(forged.form().field("id_token"));
        assertThat(idToken.getHeader().getKeyID()).isEqualTo(forger.getKeyID());
        assertThat(idToken.getJWTClaimsSet().getAudience()).containsExactly("someone-else");
        assertThat(idToken.getJWTClaimsSet().getClaim(Lti.VERSION)).isEqualTo("1.1");
        assertThat(forged.page().statusCode()).isEqualTo(401);
    }

    @Test
    void aRotatedKeySignsWhileTheOldOneStaysPublishedUntilRetired() throws Exception {
        String old = platform.signingKey().getKeyID();
        String rotated = platform.rotateKey().getKeyID();
        try {
            JsonNode jwks =
                    EmulatedPlatform.JSON.readTree(Launch.send(HttpRequest.newBuilder(URI.create(platform.jwksUrl())))
                            .body());
            assertThat(jwks.get("keys").valueStream().map(key -> key.get("kid").asString()))
                    .contains(old, rotated);
            assertThat(jwks.get("keys").valueStream().filter(key -> key.has("d")))
                    .isEmpty();

            ResourceLink link = course.place("Project", Map.of(), null);
            Launch.Result launch =
                    platform.launch(registered, course, ada, link).run();
            assertThat(SignedJWT.parse(launch.form().field("id_token"))
                            .getHeader()
                            .getKeyID())
                    .isEqualTo(rotated);
            assertThat(launch.page().statusCode()).isEqualTo(200);
        } finally {
            platform.retireOldKeys();
        }
        JsonNode jwks =
                EmulatedPlatform.JSON.readTree(Launch.send(HttpRequest.newBuilder(URI.create(platform.jwksUrl())))
                        .body());
        assertThat(jwks.get("keys").valueStream().map(key -> key.get("kid").asString()))
                .containsExactly(rotated);
    }

    // --- deep linking ---

    @Test
    void aDeepLinkingResponsePlacesItsItemWithALineItemWhichLaterLaunchesCarry() {
        HttpResponse<String> page =
                platform.deepLinking(registered, course, teacher).run().page();
        JsonNode claims = EmulatedPlatform.JSON.readTree(page.body());
        assertThat(claims.get(Lti.MESSAGE_TYPE).asString()).isEqualTo("LtiDeepLinkingRequest");
        assertThat(claims.has(Lti.RESOURCE_LINK)).isFalse();
        JsonNode settings = claims.get(Lti.DEEP_LINKING_SETTINGS);
        assertThat(settings.get("deep_link_return_url").asString()).isEqualTo(platform.deepLinkingReturnUrl());
        assertThat(settings.get("accept_types").get(0).asString()).isEqualTo("ltiResourceLink");
        String data = settings.get("data").asString();

        String response = tool.deepLinkingResponse(
                registered,
                data,
                List.of(Map.of(
                        "type", "ltiResourceLink",
                        "title", "Essay 2",
                        "url", tool.url("/launch"),
                        "custom", Map.of("homework_id", "hw-2"),
                        "lineItem", Map.of("scoreMaximum", 12, "label", "Essay 2", "resourceId", "hw-2"))));
        HtmlForm returned = new HtmlForm(URI.create(platform.deepLinkingReturnUrl()), Map.of("JWT", response));
        HttpResponse<String> added = Launch.post(returned);

        assertThat(added.statusCode()).as(added.body()).isEqualTo(200);
        ResourceLink link = platform.deepLinkingReturns().getLast().links().getFirst();
        assertThat(link.lineItem().scoreMaximum()).isEqualTo(12.0);
        assertThat(link.lineItem().resourceLinkId()).isEqualTo(link.id());
        JsonNode launch = EmulatedPlatform.JSON.readTree(
                platform.launch(registered, course, ada, link).run().page().body());
        assertThat(launch.get(Lti.CUSTOM).get("homework_id").asString()).isEqualTo("hw-2");
        assertThat(launch.get(Lti.AGS_ENDPOINT).get("lineitem").asString())
                .isEqualTo(link.lineItem().id());
        assertThat(Launch.post(returned).statusCode())
                .as("the same response again")
                .isEqualTo(400);
    }

    @Test
    void aDeepLinkingResponseSignedByAnotherKeyOrForAnotherPlatformIsRefused() {
        String data = platform.deepLinking(registered, course, teacher)
                .run()
                .form()
                .fields()
                .get("id_token");
        String settingsData;
        try {
            @SuppressWarnings("unchecked")
            Map<String, Object> settings = (Map<String, Object>)
                    SignedJWT.parse(data).getJWTClaimsSet().getClaim(Lti.DEEP_LINKING_SETTINGS);
            settingsData = (String) settings.get("data");
        } catch (java.text.ParseException e) {
            throw new AssertionError(e);
        }
        String valid = tool.deepLinkingResponse(registered, settingsData, List.of());
        String[] parts = valid.split("\\.");
        String unsigned = parts[0] + "." + parts[1] + ".";
        String forged = EmulatedPlatform.sign(parse(valid), EmulatedPlatform.newKey());

        for (String jwt : List.of(unsigned, forged)) {
            HttpResponse<String> refused =
                    Launch.post(new HtmlForm(URI.create(platform.deepLinkingReturnUrl()), Map.of("JWT", jwt)));
            assertThat(refused.statusCode()).as(refused.body()).isEqualTo(400);
        }
        assertThat(Launch.post(new HtmlForm(URI.create(platform.deepLinkingReturnUrl()), Map.of("JWT", valid)))
                        .statusCode())
                .as("the data is still unused")
                .isEqualTo(200);
    }

    // --- the token endpoint ---

    @Test
    void aValidClientAssertionGetsABearerToken() {
        HttpResponse<String> answer = tool.requestToken(tool.assertion(registered, claims -> {}), Lti.SCOPE_SCORE);

        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        assertThat(answer.headers().firstValue("Cache-Control")).hasValue("no-store");
        JsonNode token = EmulatedPlatform.JSON.readTree(answer.body());
        assertThat(token.get("token_type").asString()).isEqualTo("Bearer");
        assertThat(token.get("expires_in").asLong()).isEqualTo(3600);
        assertThat(token.get("scope").asString()).isEqualTo(Lti.SCOPE_SCORE);
        assertThat(token.get("access_token").asString()).isNotBlank();
    }

    @Test
    void theTokenEndpointRefusesABadAssertion() {
        Date past = Date.from(Instant.now().minus(Duration.ofMinutes(10)));
        Map<String, HttpResponse<String>> refusals = Map.of(
                "signed by a key the tool does not publish",
                tool.requestToken(
                        EmulatedPlatform.sign(parse(tool.assertion(registered, c -> {})), EmulatedPlatform.newKey()),
                        Lti.SCOPE_SCORE),
                "for another audience",
                tool.requestToken(tool.assertion(registered, c -> c.audience(platform.issuer())), Lti.SCOPE_SCORE),
                "expired",
                tool.requestToken(
                        tool.assertion(registered, c -> c.expirationTime(past).issueTime(past)), Lti.SCOPE_SCORE),
                "of another subject",
                tool.requestToken(tool.assertion(registered, c -> c.subject("someone")), Lti.SCOPE_SCORE));
        refusals.forEach((why, answer) -> {
            assertThat(answer.statusCode()).as(why).isEqualTo(401);
            assertThat(EmulatedPlatform.JSON
                            .readTree(answer.body())
                            .get("error")
                            .asString())
                    .as(why)
                    .isEqualTo("invalid_client");
        });

        String once = tool.assertion(registered, c -> {});
        assertThat(tool.requestToken(once, Lti.SCOPE_SCORE).statusCode()).isEqualTo(200);
        assertThat(tool.requestToken(once, Lti.SCOPE_SCORE).statusCode())
                .as("a replayed jti")
                .isEqualTo(401);

        HttpResponse<String> scope =
                tool.requestToken(tool.assertion(registered, c -> {}), "https://purl.imsglobal.org/spec/lti-nrps/all");
        assertThat(scope.statusCode()).isEqualTo(400);
        assertThat(EmulatedPlatform.JSON.readTree(scope.body()).get("error").asString())
                .isEqualTo("invalid_scope");
    }

    // --- AGS ---

    @Test
    void theSpecificationsLineItemIsCreatedListedUpdatedAndDeleted() {
        ResourceLink link = course.place("Chapter 5", Map.of(), null);
        ObjectNode item = (ObjectNode) resource("line-item.json");
        item.put("resourceLinkId", link.id());
        String token = token(Lti.SCOPE_LINE_ITEM);

        HttpResponse<String> created = send("POST", course.lineItemsUrl(), token, Lti.LINE_ITEM_TYPE, item.toString());

        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        JsonNode body = EmulatedPlatform.JSON.readTree(created.body());
        String id = body.get("id").asString();
        assertThat(id).startsWith(platform.issuer()).endsWith("/lineitem?type_id=7");
        assertThat(body.get("scoreMaximum").asDouble()).isEqualTo(60.0);
        JsonNode listed = EmulatedPlatform.JSON.readTree(
                send("GET", course.lineItemsUrl() + "&resource_link_id=" + link.id(), token, null, null)
                        .body());
        assertThat(listed.valueStream().map(node -> node.get("id").asString())).containsExactly(id);

        item.put("label", "Chapter 5 essay, revised");
        assertThat(send("PUT", id, token, Lti.LINE_ITEM_TYPE, item.toString()).statusCode())
                .isEqualTo(200);
        assertThat(EmulatedPlatform.JSON
                        .readTree(send("GET", id, token, null, null).body())
                        .get("label")
                        .asString())
                .isEqualTo("Chapter 5 essay, revised");
        assertThat(send("DELETE", id, token, null, null).statusCode()).isEqualTo(204);
        assertThat(send("GET", id, token, null, null).statusCode()).isEqualTo(404);

        ObjectNode unlabelled = (ObjectNode) resource("line-item.json");
        unlabelled.remove("label");
        assertThat(send("POST", course.lineItemsUrl(), token, Lti.LINE_ITEM_TYPE, unlabelled.toString())
                        .statusCode())
                .isEqualTo(400);
        assertThat(send("POST", course.lineItemsUrl(), token, "application/json", item.toString())
                        .statusCode())
                .isEqualTo(400);
        String readOnly = token(Lti.SCOPE_LINE_ITEM_READONLY);
        assertThat(send("POST", course.lineItemsUrl(), readOnly, Lti.LINE_ITEM_TYPE, item.toString())
                        .statusCode())
                .isEqualTo(403);
        assertThat(send("GET", course.lineItemsUrl(), readOnly, null, null).statusCode())
                .isEqualTo(200);
    }

    @Test
    void theSpecificationsScoreIsAcceptedOnceAndWhatMoodleRefusesIsRefused() {
        ResourceLink link = course.place("Graded essay", Map.of(), 100.0);
        LineItem lineItem = link.lineItem();
        String token = token(Lti.SCOPE_SCORE);
        ObjectNode score = (ObjectNode) resource("score.json");
        score.put("userId", ada.sub());

        HttpResponse<String> accepted = postScore(lineItem, token, score);

        assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(200);
        Score graded = lineItem.gradeOf(ada).orElseThrow();
        assertThat(graded.scoreGiven()).isEqualTo(83.0);
        assertThat(graded.gradingProgress()).isEqualTo("FullyGraded");
        assertThat(postScore(lineItem, token, score).statusCode())
                .as("the same timestamp again")
                .isEqualTo(409);

        ObjectNode later = score.deepCopy().put("timestamp", Instant.now().toString());
        Map<String, ObjectNode> wrong = Map.of(
                "no userId", later.deepCopy().without("userId"),
                "no timestamp", later.deepCopy().without("timestamp"),
                "a timestamp without offset", later.deepCopy().put("timestamp", "2030-05-01T10:00:00"),
                "an unknown activityProgress", later.deepCopy().put("activityProgress", "Done"),
                "no gradingProgress", later.deepCopy().without("gradingProgress"),
                "scoreGiven without scoreMaximum", later.deepCopy().without("scoreMaximum"),
                "a negative scoreGiven", later.deepCopy().put("scoreGiven", -1),
                "an unknown user", later.deepCopy().put("userId", "user-nobody"),
                "a user who is no learner", later.deepCopy().put("userId", teacher.sub()));
        wrong.forEach((why, body) -> assertThat(postScore(lineItem, token, body).statusCode())
                .as(why)
                .isEqualTo(400));
        String fresh = later.toString();
        assertThat(send("POST", scoresUrl(lineItem), token, "application/json", fresh)
                        .statusCode())
                .as("the wrong media type")
                .isEqualTo(400);
        String afterTheQuery = lineItem.id() + "/scores";
        assertThat(send("POST", afterTheQuery, token, Lti.SCORE_TYPE, fresh).statusCode())
                .as("scores appended after the query")
                .isEqualTo(405);
        assertThat(send("POST", scoresUrl(lineItem), null, Lti.SCORE_TYPE, fresh)
                        .statusCode())
                .as("no token")
                .isEqualTo(401);
        assertThat(send("POST", scoresUrl(lineItem), token(Lti.SCOPE_LINE_ITEM), Lti.SCORE_TYPE, fresh)
                        .statusCode())
                .as("a token without the score scope")
                .isEqualTo(403);
        assertThat(lineItem.scoresOf(ada)).hasSize(1);
    }

    @Test
    void anExpiredTokenIsRefused() throws InterruptedException {
        ResourceLink link = course.place("Timed essay", Map.of(), 10.0);
        platform.tokenLifetime(Duration.ofMillis(200));
        String shortLived;
        try {
            shortLived = token(Lti.SCOPE_SCORE);
        } finally {
            platform.tokenLifetime(Duration.ofHours(1));
        }
        Thread.sleep(300);

        HttpResponse<String> refused = postScore(link.lineItem(), shortLived, scoreOf(ada, 5));

        assertThat(refused.statusCode()).isEqualTo(401);
        assertThat(refused.headers().firstValue("WWW-Authenticate"))
                .hasValueSatisfying(value -> assertThat(value).contains("invalid_token"));
    }

    @Test
    void injectedFaultsAreMetOneRequestEachInOrder() {
        ResourceLink link = course.place("Faulty essay", Map.of(), 10.0);
        LineItem lineItem = link.lineItem();
        String token = token(Lti.SCOPE_SCORE);
        int before = platform.exchanges(Endpoint.SCORES).size();
        platform.inject(Endpoint.SCORES, Fault.status(503), Fault.expiredToken());

        assertThat(postScore(lineItem, token, scoreOf(ada, 1)).statusCode()).isEqualTo(503);
        assertThat(postScore(lineItem, token, scoreOf(ada, 2)).statusCode()).isEqualTo(401);
        assertThat(postScore(lineItem, token, scoreOf(ada, 3)).statusCode())
                .as("the expired token stays refused")
                .isEqualTo(401);
        assertThat(postScore(lineItem, token(Lti.SCOPE_SCORE), scoreOf(ada, 4)).statusCode())
                .isEqualTo(200);

        List<Exchange> exchanges = platform.exchanges(Endpoint.SCORES);
        assertThat(exchanges.subList(before, exchanges.size()).stream().map(Exchange::status))
                .containsExactly(503, 401, 401, 200);
        assertThat(lineItem.scoresOf(ada)).extracting(Score::scoreGiven).containsExactly(4.0);

        platform.inject(Endpoint.SCORES, Fault.slow(Duration.ofMillis(400)));
        String fresh = token(Lti.SCOPE_SCORE);
        long start = System.nanoTime();
        assertThat(postScore(lineItem, fresh, scoreOf(ada, 5)).statusCode()).isEqualTo(200);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(400));
        assertThat(lineItem.scoresOf(ada)).extracting(Score::scoreGiven).containsExactly(4.0, 5.0);

        platform.inject(Endpoint.TOKEN, Fault.status(500));
        assertThat(tool.requestToken(tool.assertion(registered, c -> {}), Lti.SCOPE_SCORE)
                        .statusCode())
                .isEqualTo(500);
    }

    // --- helpers: what a tool does, written from the specifications ---

    private static String token(String scope) {
        HttpResponse<String> answer = tool.requestToken(tool.assertion(registered, c -> {}), scope);
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        return EmulatedPlatform.JSON.readTree(answer.body()).get("access_token").asString();
    }

    /** The scores endpoint: the line item's URL with /scores added to its path, before its query. */
    private static String scoresUrl(LineItem lineItem) {
        URI id = URI.create(lineItem.id());
        return id.getScheme() + "://" + id.getRawAuthority() + id.getRawPath() + "/scores"
                + (id.getRawQuery() == null ? "" : "?" + id.getRawQuery());
    }

    private static ObjectNode scoreOf(Member member, double points) {
        return EmulatedPlatform.JSON
                .createObjectNode()
                .put("userId", member.sub())
                .put("scoreGiven", points)
                .put("scoreMaximum", 10)
                .put("activityProgress", "Completed")
                .put("gradingProgress", "FullyGraded")
                .put("timestamp", Instant.now().toString());
    }

    private static HttpResponse<String> postScore(LineItem lineItem, String token, JsonNode score) {
        return send("POST", scoresUrl(lineItem), token, Lti.SCORE_TYPE, score.toString());
    }

    private static HttpResponse<String> send(String method, String url, String token, String contentType, String body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url))
                .method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        if (contentType != null) {
            request.header("Content-Type", contentType);
        }
        return Launch.send(request);
    }

    private static com.nimbusds.jwt.JWTClaimsSet parse(String jwt) {
        try {
            return SignedJWT.parse(jwt).getJWTClaimsSet();
        } catch (java.text.ParseException e) {
            throw new AssertionError(e);
        }
    }

    private static JsonNode resource(String name) {
        try (InputStream in = EmulatedPlatformTests.class.getResourceAsStream("/lti/" + name)) {
            return EmulatedPlatform.JSON.readTree(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }
}
