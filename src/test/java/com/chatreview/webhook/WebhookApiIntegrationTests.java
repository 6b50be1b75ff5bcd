package com.chatreview.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.support.Api;
import com.chatreview.support.IntegrationTest;
import com.chatreview.support.TestService;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;

/** {@code /api/v1/webhooks} (docs/api.md, Webhooks) over real sockets: register, read, change, rotate, delete. */
@IntegrationTest
class WebhookApiIntegrationTests {

    TestService service;

    @Autowired
    JdbcClient jdbc;

    Api api;
    Api otherTenant;

    @BeforeEach
    void tenants(TestService service) {
        this.service = service;
        api = service.newTenant("webhooks").chats();
        otherTenant = service.newTenant("webhooks-other").chats();
    }

    JsonNode register(String body) {
        Api.Reply created = api.post("/api/v1/webhooks", body);
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        return created.json();
    }

    @Test
    void aRegisteredEndpointShowsItsSecretOnceAndNeverStoresItInTheClear() {
        JsonNode created = register("""
                {"url": "http://127.0.0.1:9/hooks", "event_types": ["submission.reviewed", "chat.message.created"],
                 "description": "grade book"}""");

        assertThat(created.get("url").asString()).isEqualTo("http://127.0.0.1:9/hooks");
        assertThat(created.get("event_types").toString())
                .isEqualTo("[\"submission.reviewed\",\"chat.message.created\"]");
        assertThat(created.get("description").asString()).isEqualTo("grade book");
        assertThat(created.get("enabled").asBoolean()).isTrue();
        assertThat(created.get("disabled_reason").isNull()).isTrue();
        assertThat(created.get("created_at").asString()).isNotBlank();
        String secret = created.get("secret").asString();
        assertThat(secret).startsWith("whsec_");
        assertThat(Base64.getDecoder().decode(secret.substring(6))).hasSizeBetween(24, 64);

        String id = created.get("id").asString();
        JsonNode one = api.get("/api/v1/webhooks/" + id).json();
        assertThat(one.has("secret")).isFalse();
        assertThat(one.get("id").asString()).isEqualTo(id);
        JsonNode list = api.get("/api/v1/webhooks").json().get("webhooks");
        assertThat(list).hasSize(1);
        assertThat(list.get(0).has("secret")).isFalse();

        byte[] stored = jdbc.sql("SELECT secret_sealed FROM webhook_endpoints WHERE id = :id")
                .param("id", UUID.fromString(id))
                .query(byte[].class)
                .single();
        assertThat(new String(stored, StandardCharsets.ISO_8859_1))
                .doesNotContain(secret)
                .doesNotContain(secret.substring(6));
        assertThat(contains(stored, Base64.getDecoder().decode(secret.substring(6))))
                .isFalse();
    }

    @Test
    void aTenantHasTwentyEndpointsAtMost() {
        List<String> ids = new java.util.ArrayList<>();
        for (int i = 0; i < 20; i++) {
            ids.add(register("{\"url\": \"http://127.0.0.1:9/hooks/" + i + "\", \"event_types\": [\"chat.deleted\"]}")
                    .get("id")
                    .asString());
        }
        Api.Reply refused = api.post(
                "/api/v1/webhooks", "{\"url\": \"http://127.0.0.1:9/hooks/20\", \"event_types\": [\"chat.deleted\"]}");
        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.json().get("code").asString()).isEqualTo("VALIDATION_ERROR");
        assertThat(refused.json().get("detail").asString()).contains("20");
        assertThat(otherTenant
                        .post(
                                "/api/v1/webhooks",
                                "{\"url\": \"http://127.0.0.1:9/hooks\", \"event_types\": [\"chat.deleted\"]}")
                        .status())
                .as("another tenant's allowance is its own")
                .isEqualTo(201);

        assertThat(api.delete("/api/v1/webhooks/" + ids.getFirst()).status()).isEqualTo(204);
        register("{\"url\": \"http://127.0.0.1:9/hooks/20\", \"event_types\": [\"chat.deleted\"]}");
    }

    @Test
    void unknownEventTypesAndMissingFieldsAre400WithTheFieldNamed() {
        Api.Reply unknown = api.post(
                "/api/v1/webhooks", "{\"url\": \"http://127.0.0.1:9/h\", \"event_types\": [\"chat.deleted\", \"x\"]}");
        assertThat(unknown.status()).isEqualTo(400);
        assertThat(unknown.json().get("code").asString()).isEqualTo("VALIDATION_ERROR");
        assertThat(unknown.text()).contains("event_types[1]");

        Api.Reply noUrl = api.post("/api/v1/webhooks", "{\"event_types\": [\"chat.deleted\"]}");
        assertThat(noUrl.status()).isEqualTo(400);
        assertThat(noUrl.text()).contains("\"url\"");

        Api.Reply noTypes = api.post("/api/v1/webhooks", "{\"url\": \"http://127.0.0.1:9/h\", \"event_types\": []}");
        assertThat(noTypes.status()).isEqualTo(400);
        assertThat(noTypes.text()).contains("event_types");

        Api.Reply notAUrl = api.post("/api/v1/webhooks", "{\"url\": \"nowhere\", \"event_types\": [\"chat.deleted\"]}");
        assertThat(notAUrl.status()).isEqualTo(400);
        assertThat(notAUrl.json().get("fix").asString()).isNotBlank();
    }

    @Test
    void changesRotationAndDeletion() {
        JsonNode created = register("{\"url\": \"http://127.0.0.1:9/a\", \"event_types\": [\"chat.deleted\"]}");
        String id = created.get("id").asString();

        JsonNode off =
                api.patch("/api/v1/webhooks/" + id, "{\"enabled\": false}").json();
        assertThat(off.get("enabled").asBoolean()).isFalse();
        assertThat(off.get("disabled_reason").asString()).isEqualTo("disabled by the tenant");
        JsonNode on = api.patch(
                        "/api/v1/webhooks/" + id,
                        "{\"enabled\": true, \"url\": \"http://127.0.0.1:9/b\", \"event_types\": [\"submission.decided\"]}")
                .json();
        assertThat(on.get("enabled").asBoolean()).isTrue();
        assertThat(on.get("disabled_reason").isNull()).isTrue();
        assertThat(on.get("url").asString()).endsWith("/b");
        assertThat(on.get("event_types").toString()).isEqualTo("[\"submission.decided\"]");

        Api.Reply rotated = api.post("/api/v1/webhooks/" + id + "/rotate-secret", "");
        assertThat(rotated.status()).isEqualTo(200);
        assertThat(rotated.json().get("secret").asString())
                .startsWith("whsec_")
                .isNotEqualTo(created.get("secret").asString());
        assertThat(rotated.json().get("id").asString()).isEqualTo(id);

        assertThat(api.delete("/api/v1/webhooks/" + id).status()).isEqualTo(204);
        assertThat(api.get("/api/v1/webhooks/" + id).status()).isEqualTo(404);
        assertThat(api.get("/api/v1/webhooks").json().get("webhooks")).isEmpty();
    }

    @Test
    void anotherTenantsEndpointIsNotFound() {
        String id = register("{\"url\": \"http://127.0.0.1:9/a\", \"event_types\": [\"chat.deleted\"]}")
                .get("id")
                .asString();
        for (Api.Reply reply : List.of(
                otherTenant.get("/api/v1/webhooks/" + id),
                otherTenant.patch("/api/v1/webhooks/" + id, "{\"enabled\": false}"),
                otherTenant.post("/api/v1/webhooks/" + id + "/rotate-secret", ""),
                otherTenant.delete("/api/v1/webhooks/" + id))) {
            assertThat(reply.status()).as(reply.toString()).isEqualTo(404);
            assertThat(reply.json().get("code").asString()).isEqualTo("NOT_FOUND");
        }
        assertThat(otherTenant.get("/api/v1/webhooks").json().get("webhooks")).isEmpty();
        assertThat(api.get("/api/v1/webhooks/" + id).status()).isEqualTo(200);
    }

    private static boolean contains(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }
}
