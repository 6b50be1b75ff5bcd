package com.chatreview.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.support.Api;
import com.chatreview.support.Api.Reply;
import com.chatreview.support.IntegrationTest;
import com.chatreview.support.TestService;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** The OpenAPI document, health and metrics of docs/deployment.md, as an operator or a client generator reads them. */
@IntegrationTest
class OpenApiIntegrationTests {

    TestService service;

    Api api;
    JsonNode document;

    @BeforeEach
    void readTheDocument(TestService service) {
        this.service = service;
        api = service.api();
        Reply reply = api.get("/v3/api-docs");
        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.header("Content-Type")).startsWith("application/json");
        document = reply.json();
    }

    @Test
    void listsEveryPathWithItsMethods() {
        Map<String, List<String>> expected = Map.ofEntries(
                Map.entry("/api/v1/chats", List.of("post")),
                Map.entry("/api/v1/chats/user/{user_id}", List.of("get")),
                Map.entry("/api/v1/chats/{chat_id}", List.of("get", "patch", "delete")),
                Map.entry("/api/v1/chats/{chat_id}/messages", List.of("get")),
                Map.entry("/v1/homeworks", List.of("get", "post")),
                Map.entry("/v1/homeworks/{homeworkId}", List.of("get")),
                Map.entry("/v1/homeworks/{homeworkId}/submissions", List.of("get", "post")),
                Map.entry("/v1/homeworks/{homeworkId}/submissions/{submissionId}", List.of("get", "patch")),
                Map.entry("/v1/courses", List.of("get", "post")),
                Map.entry("/api/v1/usage", List.of("get")),
                Map.entry("/api/v1/lti/platforms", List.of("get", "post")),
                Map.entry("/api/v1/lti/platforms/{platform_id}", List.of("get", "delete")),
                Map.entry("/admin/v1/tenants", List.of("get", "post")),
                Map.entry("/admin/v1/tenants/{tenantId}/api-keys", List.of("post")),
                Map.entry("/admin/v1/tenants/{tenantId}/api-keys/{keyId}", List.of("delete")),
                Map.entry("/admin/v1/tenants/{tenantId}/storage", List.of("get", "put")));

        JsonNode paths = document.get("paths");
        expected.forEach((path, methods) -> {
            assertThat(paths.has(path)).as(path + " in " + names(paths)).isTrue();
            assertThat(names(paths.get(path))).as(path).containsAll(methods);
        });
        assertThat(names(paths))
                .as("one path per endpoint: none also listed with a trailing slash")
                .noneMatch(path ->
                        path.length() > 1 && path.endsWith("/") && paths.has(path.substring(0, path.length() - 1)));
        assertThat(document.get("openapi").asString()).startsWith("3.");
        assertThat(document.get("info").get("title").asString()).isNotBlank();
    }

    @Test
    void theUploadIsMultipartWithStudentIdAndFiles() {
        JsonNode upload = document.get("paths")
                .get("/v1/homeworks/{homeworkId}/submissions")
                .get("post");
        JsonNode content = upload.get("requestBody").get("content");

        assertThat(names(content)).containsExactly("multipart/form-data");
        JsonNode schema = resolve(content.get("multipart/form-data").get("schema"));
        JsonNode properties = schema.get("properties");
        assertThat(names(properties)).contains("studentId", "files");
        assertThat(properties.get("studentId").get("type").asString()).isEqualTo("string");
        JsonNode files = properties.get("files");
        assertThat(files.get("type").asString()).isEqualTo("array");
        assertThat(files.get("items").get("type").asString()).isEqualTo("string");
        assertThat(files.get("items").get("format").asString()).isEqualTo("binary");
        assertThat(parameterNames(upload)).doesNotContain("studentId", "files");
        assertThat(names(resolve(upload.get("responses")
                                .get("201")
                                .get("content")
                                .get("application/json")
                                .get("schema"))
                        .get("properties")))
                .contains("id", "homeworkId", "chatId", "status", "chatIframeUrl", "createdAt", "analysis", "grade");
    }

    @Test
    void theCreatedChatIsDescribedFieldByField() {
        JsonNode create = document.get("paths").get("/api/v1/chats").get("post");

        JsonNode response = create.get("responses").get("201");
        JsonNode schema =
                resolve(response.get("content").values().iterator().next().get("schema"));

        assertThat(names(schema.get("properties")))
                .contains(
                        "id", "user_id", "tenant_id", "title", "config", "created_at", "updated_at", "last_message_at");
        JsonNode request = resolve(
                create.get("requestBody").get("content").get("application/json").get("schema"));
        assertThat(names(request.get("properties"))).contains("user_id", "title", "metadata");
    }

    @Test
    void theTenantIsNeverAParameter() {
        document.get("paths")
                .forEach(path -> path.forEach(operation -> {
                    if (operation.isObject()) {
                        for (JsonNode parameter : operation.path("parameters")) {
                            assertThat(parameter.get("name").asString().toLowerCase())
                                    .as(parameter.toString())
                                    .isNotIn("tenant", "id", "apikeyid");
                        }
                    }
                }));
        JsonNode chat = document.get("paths").get("/api/v1/chats/{chat_id}").get("get");
        assertThat(parameterNames(chat)).containsExactly("chat_id");
        JsonNode list = document.get("paths").get("/v1/homeworks").get("get");
        assertThat(parameterNames(list)).contains("limit", "offset", "teacherId", "courseId", "search");
    }

    @Test
    void namesTheCredentialsOfEachEndpointGroup() {
        JsonNode schemes = document.get("components").get("securitySchemes");

        for (String[] scheme : new String[][] {
            {"X-API-Key", "X-API-Key"}, {"x-tenant-api-secret", "x-tenant-api-secret"}, {"admin-token", "X-Admin-Token"}
        }) {
            JsonNode found = schemes.get(scheme[0]);
            assertThat(found).as(scheme[0]).isNotNull();
            assertThat(found.get("type").asString()).isEqualTo("apiKey");
            assertThat(found.get("in").asString()).isEqualTo("header");
            assertThat(found.get("name").asString()).isEqualTo(scheme[1]);
        }
        assertThat(securityOf("/api/v1/chats/{chat_id}", "get")).containsExactly("X-API-Key");
        assertThat(securityOf("/v1/homeworks", "get")).containsExactly("x-tenant-api-secret");
        assertThat(securityOf("/v1/homeworks/{homeworkId}/submissions", "post")).containsExactly("x-tenant-api-secret");
        assertThat(securityOf("/admin/v1/tenants", "post")).containsExactly("admin-token");
    }

    @Test
    void healthAndProbesAreUp() {
        Reply health = api.get("/actuator/health");
        assertThat(health.status()).isEqualTo(200);
        assertThat(health.json().get("status").asString()).isEqualTo("UP");
        for (String probe : new String[] {"/actuator/health/liveness", "/actuator/health/readiness"}) {
            Reply reply = api.get(probe);
            assertThat(reply.status()).as(probe).isEqualTo(200);
            assertThat(reply.json().get("status").asString()).isEqualTo("UP");
        }
    }

    @Test
    void prometheusShowsJvmAndHttpMetrics() {
        Api tenant = service.newTenant("metrics").chats(api);
        assertThat(tenant.post("/api/v1/chats", "{\"user_id\": \"student-1\"}").status())
                .isEqualTo(201);

        Reply metrics = api.get("/actuator/prometheus");

        assertThat(metrics.status()).isEqualTo(200);
        assertThat(metrics.header("Content-Type")).startsWith("text/plain");
        assertThat(metrics.text()).contains("jvm_memory").contains("http_server_requests");
        assertThat(metrics.text()).contains("uri=\"/api/v1/chats\"");
    }

    @Test
    void theBrowsableDocumentationIsServed() {
        Reply ui = api.get("/swagger-ui.html");

        assertThat(ui.status()).isIn(200, 302);
    }

    private List<String> securityOf(String path, String method) {
        List<String> names = new ArrayList<>();
        document.get("paths")
                .get(path)
                .get(method)
                .path("security")
                .forEach(requirement -> names.addAll(names(requirement)));
        return names;
    }

    private JsonNode resolve(JsonNode schema) {
        if (schema.has("$ref")) {
            String name = schema.get("$ref").asString().replace("#/components/schemas/", "");
            return document.get("components").get("schemas").get(name);
        }
        return schema;
    }

    private static List<String> parameterNames(JsonNode operation) {
        List<String> names = new ArrayList<>();
        operation
                .path("parameters")
                .forEach(parameter -> names.add(parameter.get("name").asString()));
        return names;
    }

    private static List<String> names(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.propertyNames().forEach(names::add);
        return names;
    }
}
