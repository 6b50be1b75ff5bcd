package com.chatreview.lti;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.lti.keys.ToolKeys;
import com.chatreview.support.Api;
import com.chatreview.support.Api.Reply;
import com.chatreview.support.IntegrationTest;
import com.chatreview.support.TestService;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code /api/v1/lti/platforms}: registered, read, listed and deleted by the tenant alone; every field checked; an
 * issuer and client id leading to one registration across tenants. And the tool's keys, rotated with overlap.
 */
@IntegrationTest
class LtiPlatformsIntegrationTests {

    @Autowired
    ToolKeys toolKeys;

    static ObjectNode platform(String issuer, String clientId) {
        return Api.JSON
                .createObjectNode()
                .put("issuer", issuer)
                .put("client_id", clientId)
                .<ObjectNode>set(
                        "deployment_ids",
                        Api.JSON.createArrayNode().add("1:deployment").add("2:deployment"))
                .put("auth_login_url", "http://127.0.0.1:9/auth")
                .put("auth_token_url", "http://127.0.0.1:9/token")
                .put("jwks_url", "http://127.0.0.1:9/jwks");
    }

    @Test
    void aPlatformIsRegisteredReadListedAndDeleted(TestService service) {
        Api api = service.newTenant("lti-platforms").chats();
        String clientId = "client-" + UUID.randomUUID();

        Reply created = api.post(
                "/api/v1/lti/platforms",
                platform("https://lms.school.example", clientId).toString());

        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        JsonNode body = created.json();
        String id = body.get("id").asString();
        assertThat(body.get("issuer").asString()).isEqualTo("https://lms.school.example");
        assertThat(body.get("client_id").asString()).isEqualTo(clientId);
        assertThat(body.get("deployment_ids").valueStream().map(JsonNode::asString))
                .containsExactly("1:deployment", "2:deployment");
        assertThat(body.get("jwks_url").asString()).isEqualTo("http://127.0.0.1:9/jwks");
        assertThat(body.get("created_at").asString()).isNotBlank();
        assertThat(api.get("/api/v1/lti/platforms/" + id).json()).isEqualTo(body);
        assertThat(api.get("/api/v1/lti/platforms")
                        .json()
                        .get("platforms")
                        .valueStream()
                        .map(node -> node.get("id").asString()))
                .containsExactly(id);

        assertThat(api.delete("/api/v1/lti/platforms/" + id).status()).isEqualTo(204);
        Reply gone = api.get("/api/v1/lti/platforms/" + id);
        assertThat(gone.status()).isEqualTo(404);
        assertThat(gone.json().get("code").asString()).isEqualTo("NOT_FOUND");
        assertThat(api.delete("/api/v1/lti/platforms/" + id).status()).isEqualTo(404);
    }

    @Test
    void anotherTenantNeitherSeesNorDeletesIt(TestService service) {
        Api school = service.newTenant("lti-owner").chats();
        Api other = service.newTenant("lti-other").chats();
        String id = school.post(
                        "/api/v1/lti/platforms",
                        platform("https://lms.school.example", "client-" + UUID.randomUUID())
                                .toString())
                .json()
                .get("id")
                .asString();

        assertThat(other.get("/api/v1/lti/platforms/" + id).status()).isEqualTo(404);
        assertThat(other.delete("/api/v1/lti/platforms/" + id).status()).isEqualTo(404);
        assertThat(other.get("/api/v1/lti/platforms").json().get("platforms").size())
                .isZero();
        assertThat(school.get("/api/v1/lti/platforms/" + id).status()).isEqualTo(200);
    }

    @Test
    void aDeploymentLeadsToOneRegistrationAndAClientWithItsTokenEndpointToOneTenant(TestService service) {
        Api first = service.newTenant("lti-first").chats();
        Api second = service.newTenant("lti-second").chats();
        String clientId = "client-" + UUID.randomUUID();
        ObjectNode body = platform("https://blackboard.example", clientId);
        assertThat(first.post("/api/v1/lti/platforms", body.toString()).status())
                .isEqualTo(201);

        assertThat(first.post("/api/v1/lti/platforms", body.toString())
                        .json()
                        .get("detail")
                        .asString())
                .as("the same tenant's deployment again")
                .contains("1:deployment");
        body.set("deployment_ids", Api.JSON.createArrayNode().add("3:another-deployment"));
        assertThat(first.post("/api/v1/lti/platforms", body.toString()).status())
                .as("another deployment of the same client, by the tenant that holds it")
                .isEqualTo(201);

        body.set("deployment_ids", Api.JSON.createArrayNode().add("4:another-school"));
        Reply again = second.post("/api/v1/lti/platforms", body.toString());
        assertThat(again.status()).as("its tokens would be the first tenant's").isEqualTo(409);
        assertThat(again.json().get("code").asString()).isEqualTo("CONFLICT");
        assertThat(again.json().get("errors").get(0).get("field").asString()).isEqualTo("client_id");
        assertThat(again.json().get("fix").asString()).isNotBlank();
        assertThat(second.get("/api/v1/lti/platforms").json().get("platforms").size())
                .as("nothing of the refused registration is kept")
                .isZero();

        body.put("auth_token_url", "HTTP://127.0.0.1:9/Token/?written=otherwise");
        assertThat(second.post("/api/v1/lti/platforms", body.toString()).status())
                .as("the same LMS's token endpoint written otherwise: one origin")
                .isEqualTo(409);
        body.put("auth_token_url", "http://127.0.0.2:9/token");
        assertThat(second.post("/api/v1/lti/platforms", body.toString()).status())
                .as("the same client id at another LMS's token endpoint")
                .isEqualTo(201);
    }

    @Test
    void everyWrongFieldIsNamed(TestService service) {
        Api api = service.newTenant("lti-wrong").chats();

        Reply empty = api.post("/api/v1/lti/platforms", "{}");

        assertThat(empty.status()).isEqualTo(400);
        assertThat(empty.json().get("code").asString()).isEqualTo("VALIDATION_ERROR");
        assertThat(empty.json()
                        .get("errors")
                        .valueStream()
                        .map(error -> error.get("field").asString()))
                .contains("issuer", "client_id", "deployment_ids", "auth_login_url", "auth_token_url", "jwks_url");

        ObjectNode wrong = platform("not a url", " padded ");
        wrong.set("deployment_ids", Api.JSON.createArrayNode().add(""));
        wrong.put("jwks_url", "ftp://127.0.0.1/jwks");
        wrong.put("auth_token_url", "https://user:secret@lms.example/token");
        wrong.put("auth_login_url", "https://lms.example/auth#fragment");
        Reply refused = api.post("/api/v1/lti/platforms", wrong.toString());
        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.json()
                        .get("errors")
                        .valueStream()
                        .map(error -> error.get("field").asString()))
                .contains("issuer", "client_id", "deployment_ids[0]", "auth_login_url", "auth_token_url", "jwks_url");
        assertThat(api.get("/api/v1/lti/platforms").json().get("platforms").size())
                .isZero();
    }

    @Test
    void aRegistrationsNextKeyIsPublishedADayBeforeItSignsAndTheOldOneStaysPublishedAWeekAfter(TestService service) {
        UUID platform = UUID.fromString(service.newTenant("lti-keys")
                .chats()
                .post(
                        "/api/v1/lti/platforms",
                        platform("https://lms.keys.example", "client-" + UUID.randomUUID())
                                .toString())
                .json()
                .get("id")
                .asString());
        Instant registered = Instant.now();
        String first = toolKeys.signingKeyAt(platform, registered).getKeyID();
        assertThat(kids(toolKeys.publishedAt(platform, registered)))
                .as("a new registration's first key signs at once")
                .containsExactly(first);

        Instant made = registered.plus(90, ChronoUnit.DAYS);
        List<String> publishedWhenMade = kids(toolKeys.publishedAt(platform, made));
        String signingWhenMade = toolKeys.signingKeyAt(platform, made).getKeyID();
        String after = publishedWhenMade.stream()
                .filter(kid -> !kid.equals(first))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no next key published: " + publishedWhenMade));

        assertThat(signingWhenMade)
                .as("the next key is published, not yet signing")
                .isEqualTo(first);
        Instant active = made.plus(1, ChronoUnit.DAYS).plusSeconds(1);
        assertThat(toolKeys.signingKeyAt(platform, active).getKeyID()).isEqualTo(after);
        assertThat(kids(toolKeys.publishedAt(platform, active.plus(6, ChronoUnit.DAYS))))
                .contains(first, after);
        assertThat(kids(toolKeys.publishedAt(platform, active.plus(8, ChronoUnit.DAYS))))
                .contains(after)
                .doesNotContain(first);
        assertThat(toolKeys.publishedAt(platform, active).getKeys())
                .allSatisfy(key -> assertThat(key.isPrivate()).isFalse());
    }

    private static List<String> kids(com.nimbusds.jose.jwk.JWKSet keys) {
        return keys.getKeys().stream().map(key -> key.getKeyID()).toList();
    }
}
