package com.chatreview.lti;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.chatreview.lti.keys.PlatformTokens;
import com.chatreview.lti.keys.ToolKeys;
import com.chatreview.lti.platform.Course;
import com.chatreview.lti.platform.EmulatedPlatform;
import com.chatreview.lti.platform.EmulatedPlatform.Endpoint;
import com.chatreview.lti.platform.ResourceLink;
import com.chatreview.support.Api;
import com.chatreview.support.IntegrationTest;
import com.chatreview.support.TestService;
import com.chatreview.support.TestTenant;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jwt.SignedJWT;
import java.io.IOException;
import java.net.URI;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * No tenant can borrow another school's LMS trust: an attacker's tenant that names school A's client id gets no
 * registration at A's token endpoint, and what the tool signs for the attacker's own registration is worth nothing at
 * A's LMS, which trusts only the keys of A's registration.
 */
@IntegrationTest
class LtiTrustBetweenTenantsIntegrationTests {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @Test
    void anotherTenantNeitherRegistersASchoolsClientNorGetsItsTokenWithWhatTheToolSignsForIt(TestService service)
            throws Exception {
        RegisteredTool schoolA = RegisteredTool.in(service, "lti-school-a");
        String base = "http://127.0.0.1:" + service.port();
        try (EmulatedPlatform attacker = new EmulatedPlatform()) {
            TestTenant borrower = service.newTenant("lti-borrower");
            EmulatedPlatform.Tool forged = attacker.registerAs(
                    schoolA.tool().clientId(), base + "/lti/login", base + "/lti/launch", "unknown-yet");
            Map<String, Object> borrowing = new LinkedHashMap<>(attacker.registrationFor(forged));
            borrowing.put("auth_token_url", schoolA.platform().tokenUrl());

            Api.Reply refused = borrower.chats().post("/api/v1/lti/platforms", Api.JSON.writeValueAsString(borrowing));

            assertThat(refused.status()).as(refused.toString()).isEqualTo(409);
            assertThat(refused.json().get("code").asString()).isEqualTo("CONFLICT");

            // the attacker's own token endpoint: allowed, and the tool signs for that registration alone
            Api.Reply registered = borrower.chats()
                    .post("/api/v1/lti/platforms", Api.JSON.writeValueAsString(attacker.registrationFor(forged)));
            assertThat(registered.status()).as(registered.toString()).isEqualTo(201);
            forged = attacker.useJwks(
                    forged, registered.json().get("tool_jwks_url").asString());
            int schoolTokensBefore =
                    schoolA.platform().exchanges(Endpoint.TOKEN).size();

            Course course = attacker.course("ATT 1", "Borrowed trust");
            ResourceLink link = course.place("Forged", Map.of("homework_id", borrower.publishHomework("forged")), null);
            HttpResponse<String> launched = attacker.launch(forged, course, course.learner("Eve", "Forger"), link)
                    .run()
                    .page();
            assertThat(launched.statusCode()).as(launched.body()).isEqualTo(303);

            List<EmulatedPlatform.Exchange> asked = attacker.exchanges(Endpoint.TOKEN);
            assertThat(asked)
                    .as("the launch's column was looked for with a token")
                    .isNotEmpty();
            String assertion = form(asked.getLast().body()).get("client_assertion");
            String kid = SignedJWT.parse(assertion).getHeader().getKeyID();
            assertThat(kids(schoolA.tool().jwksUrl()))
                    .as("the key that signs for the borrower's registration is not one school A's LMS trusts")
                    .doesNotContain(kid);
            assertThat(kids(base + "/lti/jwks")).doesNotContain(kid);
            assertThat(kids(forged.jwksUrl())).contains(kid);
            assertThat(schoolA.platform().exchanges(Endpoint.TOKEN))
                    .as("the service never asked school A's token endpoint for the borrower")
                    .hasSize(schoolTokensBefore);

            // what the tool signed for the borrower, taken to school A's LMS: refused for its key, not its audience
            HttpResponse<String> replayed = HTTP.send(
                    HttpRequest.newBuilder(URI.create(schoolA.platform().tokenUrl()))
                            .header("Content-Type", "application/x-www-form-urlencoded")
                            .POST(HttpRequest.BodyPublishers.ofString(form(Map.of(
                                    "grant_type",
                                    "client_credentials",
                                    "client_assertion_type",
                                    "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
                                    "client_assertion",
                                    assertion,
                                    "scope",
                                    PlatformTokens.SCORE_SCOPE))))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(replayed.statusCode()).isEqualTo(401);
            assertThat(replayed.body()).contains("has no RSA key");
        } finally {
            schoolA.platform().close();
        }
    }

    @Test
    void eachRegistrationHasKeysOfItsOwnAndNewOnesAreNotPublishedAtTheSharedUrl(
            TestService service, @Autowired ToolKeys keys) throws Exception {
        RegisteredTool first = RegisteredTool.in(service, "lti-keys-first");
        RegisteredTool second = RegisteredTool.in(service, "lti-keys-second");
        try {
            List<String> firstKids = kids(first.tool().jwksUrl());
            List<String> secondKids = kids(second.tool().jwksUrl());

            assertThat(firstKids).isNotEmpty().doesNotContainAnyElementsOf(secondKids);
            assertThat(secondKids).isNotEmpty();
            assertThat(firstKids)
                    .contains(
                            keys.signingKey(UUID.fromString(first.platformId())).getKeyID());
            assertThat(secondKids)
                    .contains(keys.signingKey(UUID.fromString(second.platformId()))
                            .getKeyID());
            assertThat(kids("http://127.0.0.1:" + service.port() + "/lti/jwks"))
                    .doesNotContainAnyElementsOf(firstKids)
                    .doesNotContainAnyElementsOf(secondKids);

            HttpResponse<String> unknown = HTTP.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + service.port() + "/lti/platforms/"
                                    + UUID.randomUUID() + "/jwks"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(unknown.statusCode()).isEqualTo(404);
            assertThat(Api.JSON.readTree(unknown.body()).get("code").asString()).isEqualTo("NOT_FOUND");

            assertThat(first.school()
                            .chats()
                            .delete("/api/v1/lti/platforms/" + first.platformId())
                            .status())
                    .isEqualTo(204);
            assertThatThrownBy(() -> keys.publishedAt(UUID.fromString(first.platformId()), Instant.now()))
                    .as("a deleted registration's keys go with it")
                    .isInstanceOf(LtiErrors.PlatformNotFound.class);
        } finally {
            first.platform().close();
            second.platform().close();
        }
    }

    /**
     * An unknown registration's JWKS is a guess like a wrong key: it counts against the address, and past the budget
     * only the keys this node read lately are served to it.
     */
    @Test
    void guessedRegistrationsSpendTheAddressesBudgetButAKnownOneIsStillServed(TestService service) throws Exception {
        RegisteredTool known = RegisteredTool.in(service, "lti-keys-guessed");
        try {
            assertThat(kids(known.tool().jwksUrl())).isNotEmpty();
            String address = "192.0.2." + (int) (Math.random() * 250 + 1);
            String base = "http://127.0.0.1:" + service.port() + "/lti/platforms/";
            for (int i = 0; i < 60; i++) {
                assertThat(jwks(base + UUID.randomUUID() + "/jwks", address).statusCode())
                        .isEqualTo(404);
            }
            assertThat(jwks(base + UUID.randomUUID() + "/jwks", address).statusCode())
                    .isEqualTo(429);
            assertThat(jwks(known.tool().jwksUrl(), address).statusCode())
                    .as("the registration's own LMS, behind the same address")
                    .isEqualTo(200);
        } finally {
            known.platform().close();
        }
    }

    private static HttpResponse<String> jwks(String url, String address) throws IOException, InterruptedException {
        return HTTP.send(
                HttpRequest.newBuilder(URI.create(url))
                        .header("X-Forwarded-For", address)
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aRegistrationMadeBeforeKeepsWorkingAtTheSharedUrlUntilItsOwnKeyIsActive(
            TestService service, @Autowired ToolKeys keys, @Autowired JdbcClient jdbc) throws Exception {
        RegisteredTool before = RegisteredTool.in(service, "lti-keys-before");
        try {
            UUID platform = UUID.fromString(before.platformId());
            // as the migration leaves a registration of the time when one key was shared by all: that key, and the
            // registration marked as told the shared URL, with no key of its own yet
            String shared = keys.signingKeyAt(platform, Instant.now()).getKeyID();
            jdbc.sql("UPDATE lti_tool_keys SET platform_id = NULL, created_at = created_at - interval '2 days'"
                            + " WHERE platform_id = :platform")
                    .param("platform", platform)
                    .update();
            jdbc.sql("UPDATE lti_platforms SET shared_jwks = true WHERE id = :platform")
                    .param("platform", platform)
                    .update();
            Instant now = Instant.now();

            assertThat(keys.signingKeyAt(platform, now).getKeyID())
                    .as("the shared key signs while the registration's own is new")
                    .isEqualTo(shared);
            List<String> published = keys.publishedAt(platform, now).getKeys().stream()
                    .map(JWK::getKeyID)
                    .toList();
            assertThat(published).hasSize(2).contains(shared);
            String own = published.stream()
                    .filter(kid -> !kid.equals(shared))
                    .findFirst()
                    .orElseThrow();
            assertThat(keys.signingKeyAt(platform, now.plus(Duration.ofDays(1)).plusSeconds(1))
                            .getKeyID())
                    .as("its own key, once LMSes that cached the shared set know it")
                    .isEqualTo(own);
            assertThat(keys.sharedPublishedAfresh().getKeys().stream().map(JWK::getKeyID))
                    .as("at the URL its LMS was told, until the operator retires it")
                    .contains(shared, own);
        } finally {
            before.platform().close();
        }
    }

    private static List<String> kids(String jwksUrl)
            throws IOException, InterruptedException, java.text.ParseException {
        HttpResponse<String> answer =
                HTTP.send(HttpRequest.newBuilder(URI.create(jwksUrl)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(answer.statusCode()).as(jwksUrl).isEqualTo(200);
        return JWKSet.parse(answer.body()).getKeys().stream().map(JWK::getKeyID).toList();
    }

    private static Map<String, String> form(String body) {
        return Arrays.stream(body.split("&"))
                .map(pair -> pair.split("=", 2))
                .collect(Collectors.toMap(
                        pair -> URLDecoder.decode(pair[0], StandardCharsets.UTF_8),
                        pair -> pair.length < 2 ? "" : URLDecoder.decode(pair[1], StandardCharsets.UTF_8),
                        (a, b) -> b));
    }

    private static String form(Map<String, String> fields) {
        return fields.entrySet().stream()
                .map(field -> field.getKey() + "=" + URLEncoder.encode(field.getValue(), StandardCharsets.UTF_8))
                .collect(Collectors.joining("&"));
    }
}
