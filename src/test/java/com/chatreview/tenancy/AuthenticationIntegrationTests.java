package com.chatreview.tenancy;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.support.Api;
import com.chatreview.support.Api.Reply;
import com.chatreview.support.IntegrationTest;
import com.chatreview.support.SharedTestConfiguration;
import com.chatreview.support.TestService;
import com.chatreview.support.TestTenant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/** Tenant keys on every endpoint group (docs/api.md, Authentication), and the operator's admin API. */
@IntegrationTest
class AuthenticationIntegrationTests {

    static final Pattern TIMESTAMP = Pattern.compile("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z");
    static final String CHAT_HEADER = "X-API-Key";
    static final String HOMEWORK_HEADER = "x-tenant-api-secret";

    TestService service;

    @Autowired
    Tenancy tenancy;

    TestTenant tenant;
    Api api;
    Api admin;
    String chatId;
    String homeworkId;

    @BeforeEach
    void newTenantWithAChatAndAHomework(TestService service) {
        this.service = service;
        tenant = service.newTenant("auth-tests");
        api = service.api();
        admin = api.with("X-Admin-Token", SharedTestConfiguration.ADMIN_TOKEN);
        chatId = tenant.chats(api)
                .post("/api/v1/chats", "{\"user_id\": \"student-1\"}")
                .json()
                .get("id")
                .asString();
        String courseId = tenant.homework(api)
                .post("/v1/courses", "{\"teacherId\": \"teacher-1\", \"name\": \"Course\"}")
                .json()
                .get("id")
                .asString();
        homeworkId = tenant.homework(api)
                .post("/v1/homeworks", """
                        {"teacherId": "teacher-1", "courseId": "%s", "assignmentId": "hw-1",
                         "files": [{"fileType": "task", "fileName": "task.md", "content": "Add 1 and 1"}]}""".formatted(courseId))
                .json()
                .get("id")
                .asString();
    }

    @Test
    void everyChatEndpointNeedsAKeyInXApiKey() {
        for (Function<Api, Reply> call : chatCalls()) {
            assertUnauthorized(call.apply(api));
            assertUnauthorized(call.apply(api.with(CHAT_HEADER, "crs_" + "x".repeat(43))));
            assertUnauthorized(call.apply(api.with(CHAT_HEADER, "not-a-key")));
            assertUnauthorized(call.apply(api.with(CHAT_HEADER, " ")));
            assertUnauthorized(call.apply(api.with(HOMEWORK_HEADER, tenant.apiKey())));
        }
    }

    @Test
    void everyHomeworkEndpointNeedsAKeyInXTenantApiSecret() {
        for (Function<Api, Reply> call : homeworkCalls()) {
            assertUnauthorized(call.apply(api));
            assertUnauthorized(call.apply(api.with(HOMEWORK_HEADER, "crs_" + "x".repeat(43))));
            assertUnauthorized(call.apply(api.with(HOMEWORK_HEADER, "not-a-key")));
            assertUnauthorized(call.apply(api.with(CHAT_HEADER, tenant.apiKey())));
        }
    }

    @Test
    void theSubmissionUploadNeedsAKeyBeforeItReadsTheFiles() {
        String path = "/v1/homeworks/" + homeworkId + "/submissions";
        for (Api caller : List.of(
                api,
                api.with(HOMEWORK_HEADER, "crs_wrong"),
                api.with(CHAT_HEADER, tenant.apiKey()),
                api.with(HOMEWORK_HEADER, tenant.apiKey() + "x"))) {
            assertUnauthorized(caller.upload(path, upload()));
        }

        Reply accepted = tenant.homework(api).upload(path, upload());
        assertThat(accepted.status()).as(accepted.toString()).isEqualTo(201);
        assertThat(tenant.homework(api).get(path).json().get("total").asInt()).isEqualTo(1);
    }

    @Test
    void theSameKeyValueWorksInBothHeaders() {
        for (Function<Api, Reply> call : chatCalls()) {
            assertThat(call.apply(tenant.chats(api)).status()).isNotEqualTo(401);
        }
        for (Function<Api, Reply> call : homeworkCalls()) {
            assertThat(call.apply(tenant.homework(api)).status()).isNotEqualTo(401);
        }
        assertThat(tenant.chats(api).get("/api/v1/chats/" + chatId).status()).isEqualTo(200);
        assertThat(tenant.homework(api).get("/v1/homeworks/" + homeworkId).status())
                .isEqualTo(200);
    }

    @Test
    void anOperatorCreatesATenantWhoseKeyWorksAtOnce() {
        String name = "school-" + UUID.randomUUID();

        Reply created = admin.post("/admin/v1/tenants", "{\"name\": \"" + name + "\"}");

        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        assertThat(created.fieldNames()).containsExactly("id", "name", "api_key", "created_at");
        assertThat(created.json().get("name").asString()).isEqualTo(name);
        assertThat(created.json().get("created_at").asString()).matches(TIMESTAMP);
        String key = created.json().get("api_key").asString();
        assertThat(key).startsWith("crs_");
        Reply chat = api.with(CHAT_HEADER, key).post("/api/v1/chats", "{\"user_id\": \"student-1\"}");
        assertThat(chat.status()).isEqualTo(201);
        assertThat(chat.json().get("tenant_id").asString())
                .isEqualTo(created.json().get("id").asString());
        assertThat(api.with(HOMEWORK_HEADER, key).get("/v1/homeworks").status()).isEqualTo(200);
    }

    @Test
    void theTenantListNeverShowsAKey() {
        Reply created = admin.post("/admin/v1/tenants", "{\"name\": \"listed\"}");
        String id = created.json().get("id").asString();

        Reply list = admin.get("/admin/v1/tenants");

        assertThat(list.status()).isEqualTo(200);
        assertThat(list.fieldNames()).containsExactly("tenants");
        JsonNode listed = null;
        for (JsonNode each : list.json().get("tenants")) {
            List<String> names = new ArrayList<>();
            each.propertyNames().forEach(names::add);
            assertThat(names).containsExactly("id", "name", "created_at");
            if (each.get("id").asString().equals(id)) {
                listed = each;
            }
        }
        assertThat(listed).isNotNull();
        assertThat(listed.get("name").asString()).isEqualTo("listed");
        assertThat(listed.get("created_at").asString())
                .isEqualTo(created.json().get("created_at").asString());
        assertThat(list.text())
                .doesNotContain(created.json().get("api_key").asString())
                .doesNotContain("api_key")
                .doesNotContain("crs_");
    }

    @Test
    void aSecondKeyWorksBesideTheFirstUntilItIsRevoked() {
        Reply second = admin.post("/admin/v1/tenants/" + tenant.id() + "/api-keys", "");

        assertThat(second.status()).as(second.toString()).isEqualTo(201);
        assertThat(second.fieldNames()).containsExactly("id", "api_key", "created_at");
        assertThat(second.json().get("created_at").asString()).matches(TIMESTAMP);
        String secondKey = second.json().get("api_key").asString();
        assertThat(secondKey).startsWith("crs_").isNotEqualTo(tenant.apiKey());
        assertThat(api.with(CHAT_HEADER, secondKey)
                        .get("/api/v1/chats/" + chatId)
                        .status())
                .isEqualTo(200);
        assertThat(api.with(HOMEWORK_HEADER, secondKey)
                        .get("/v1/homeworks/" + homeworkId)
                        .status())
                .isEqualTo(200);
        assertThat(tenant.chats(api).get("/api/v1/chats/" + chatId).status()).isEqualTo(200);

        Reply revoked = admin.delete("/admin/v1/tenants/" + tenant.id() + "/api-keys/"
                + second.json().get("id").asString());

        assertThat(revoked.status()).isEqualTo(204);
        assertThat(revoked.text()).isEmpty();
        assertUnauthorized(api.with(CHAT_HEADER, secondKey).get("/api/v1/chats/" + chatId));
        assertUnauthorized(api.with(HOMEWORK_HEADER, secondKey).get("/v1/homeworks/" + homeworkId));
        assertThat(tenant.chats(api).get("/api/v1/chats/" + chatId).status()).isEqualTo(200);
        assertThat(tenant.homework(api).get("/v1/homeworks/" + homeworkId).status())
                .isEqualTo(200);
        assertThat(admin.delete("/admin/v1/tenants/" + tenant.id() + "/api-keys/"
                                + second.json().get("id").asString())
                        .status())
                .isEqualTo(204);
    }

    @Test
    void revokingTheOnlyKeyLocksTheTenantOutAtOnce() {
        Reply created = admin.post("/admin/v1/tenants", "{\"name\": \"short-lived\"}");
        String key = created.json().get("api_key").asString();
        Api owner = api.with(CHAT_HEADER, key);
        String chat = owner.post("/api/v1/chats", "{\"user_id\": \"u\"}")
                .json()
                .get("id")
                .asString();
        assertThat(owner.get("/api/v1/chats/" + chat).status()).isEqualTo(200);
        String keyId = tenancy.authenticate(key).orElseThrow().apiKeyId().toString();

        Reply revoked =
                admin.delete("/admin/v1/tenants/" + created.json().get("id").asString() + "/api-keys/" + keyId);

        assertThat(revoked.status()).isEqualTo(204);
        assertUnauthorized(owner.get("/api/v1/chats/" + chat));
    }

    @Test
    void theAdminApiNeedsTheAdminToken() {
        List<Function<Api, Reply>> calls = List.of(
                caller -> caller.post("/admin/v1/tenants", "{\"name\": \"intruder\"}"),
                caller -> caller.get("/admin/v1/tenants"),
                caller -> caller.post("/admin/v1/tenants/" + tenant.id() + "/api-keys", ""),
                caller -> caller.delete("/admin/v1/tenants/" + tenant.id() + "/api-keys/" + UUID.randomUUID()));
        int tenantsBefore = admin.get("/admin/v1/tenants").json().get("tenants").size();
        for (Function<Api, Reply> call : calls) {
            assertUnauthorized(call.apply(api));
            assertUnauthorized(call.apply(api.with("X-Admin-Token", "wrong")));
            assertUnauthorized(call.apply(api.with("X-Admin-Token", SharedTestConfiguration.ADMIN_TOKEN + "x")));
            assertUnauthorized(call.apply(api.with("X-Admin-Token", "")));
            assertUnauthorized(call.apply(api.with("X-Admin-Token", tenant.apiKey())));
            assertUnauthorized(call.apply(tenant.chats(api)));
            assertUnauthorized(call.apply(tenant.homework(api)));
        }
        assertThat(admin.get("/admin/v1/tenants").json().get("tenants").size()).isEqualTo(tenantsBefore);
    }

    @Test
    void unknownTenantsAndKeysAreNotFound() {
        for (String tenantId : List.of(UUID.randomUUID().toString(), "not-a-uuid")) {
            assertNotFound(admin.post("/admin/v1/tenants/" + tenantId + "/api-keys", ""));
            assertNotFound(admin.delete("/admin/v1/tenants/" + tenantId + "/api-keys/" + UUID.randomUUID()));
        }
        assertNotFound(admin.delete("/admin/v1/tenants/" + tenant.id() + "/api-keys/" + UUID.randomUUID()));
        assertNotFound(admin.delete("/admin/v1/tenants/" + tenant.id() + "/api-keys/not-a-uuid"));

        TestTenant other = service.newTenant("other");
        String keyOfOther =
                tenancy.authenticate(other.apiKey()).orElseThrow().apiKeyId().toString();
        assertNotFound(admin.delete("/admin/v1/tenants/" + tenant.id() + "/api-keys/" + keyOfOther));
        assertThat(other.chats(api).get("/api/v1/chats/" + UUID.randomUUID()).status())
                .isEqualTo(404);
    }

    @Test
    void aTenantNeedsANonBlankName() {
        for (String body : List.of(
                "{}",
                "{\"name\": \"\"}",
                "{\"name\": \"   \"}",
                "{\"name\": null}",
                "{\"name\": 5}",
                "{\"name\": true}",
                "{\"name\": [\"a\"]}",
                "{\"name\": \"" + "n".repeat(201) + "\"}",
                "[]",
                "{\"name\": ",
                "")) {
            Reply reply = admin.post("/admin/v1/tenants", body);
            assertThat(reply.status()).as(body).isEqualTo(400);
            assertThat(reply.header("Content-Type")).startsWith("application/problem+json");
            assertThat(reply.json().get("code").asString()).isEqualTo("VALIDATION_ERROR");
            assertThat(reply.json().get("fix").asString()).isNotBlank();
        }
        Reply notAString = admin.post("/admin/v1/tenants", "{\"name\": 5}");
        assertThat(notAString.json().get("errors").get(0).get("field").asString())
                .isEqualTo("name");
        Reply blank = admin.post("/admin/v1/tenants", "{\"name\": \" \"}");
        assertThat(blank.json().get("errors").get(0).get("field").asString()).isEqualTo("name");
    }

    private List<Function<Api, Reply>> chatCalls() {
        return List.of(
                caller -> caller.post("/api/v1/chats", "{\"user_id\": \"student-2\"}"),
                caller -> caller.post("/api/v1/chats/", "{\"user_id\": \"student-2\"}"),
                caller -> caller.get("/api/v1/chats/user/student-1"),
                caller -> caller.get("/api/v1/chats/" + chatId),
                caller -> caller.get("/api/v1/chats/" + chatId + "/messages"),
                caller -> caller.patch("/api/v1/chats/" + chatId, "{\"title\": \"Renamed\"}"),
                caller -> caller.get("/api/v1/chats/" + UUID.randomUUID()),
                caller -> caller.delete("/api/v1/chats/" + UUID.randomUUID()));
    }

    private List<Function<Api, Reply>> homeworkCalls() {
        String submissions = "/v1/homeworks/" + homeworkId + "/submissions";
        return List.of(
                caller -> caller.get("/v1/homeworks"),
                caller -> caller.get("/v1/homeworks?limit=5&search=x"),
                caller -> caller.get("/v1/homeworks/" + homeworkId),
                caller -> caller.post("/v1/courses", "{\"teacherId\": \"t\", \"name\": \"n\"}"),
                caller -> caller.get("/v1/courses"),
                caller -> caller.post("/v1/homeworks", "{\"teacherId\": \"t\"}"),
                caller -> caller.get(submissions),
                caller -> caller.get(submissions + "/" + UUID.randomUUID()),
                caller -> caller.patch(submissions + "/" + UUID.randomUUID(), "{\"status\": \"approved\"}"));
    }

    private static Api.Multipart upload() {
        return new Api.Multipart().field("studentId", "student-1").file("answer.txt", "2");
    }

    private static void assertUnauthorized(Reply reply) {
        assertThat(reply.status()).as(reply.toString()).isEqualTo(401);
        assertThat(reply.header("Content-Type")).startsWith("application/problem+json");
        assertThat(reply.json().get("code").asString()).isEqualTo("UNAUTHORIZED");
        assertThat(reply.json().get("fix").asString()).isNotBlank();
        assertThat(reply.json().get("request_id").asString()).isEqualTo(reply.header("X-Request-Id"));
        assertThat(reply.header("X-RateLimit-Remaining")).isNull();
    }

    private static void assertNotFound(Reply reply) {
        assertThat(reply.status()).as(reply.toString()).isEqualTo(404);
        assertThat(reply.header("Content-Type")).startsWith("application/problem+json");
        assertThat(reply.json().get("code").asString()).isEqualTo("NOT_FOUND");
    }
}
