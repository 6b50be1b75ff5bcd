package com.chatreview.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.support.Api;
import com.chatreview.support.Api.Reply;
import com.chatreview.support.IntegrationTest;
import com.chatreview.support.TestService;
import com.chatreview.support.TestTenant;
import java.io.ByteArrayInputStream;
import java.net.http.HttpRequest.BodyPublishers;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * What a careless or hostile client sends (docs/api.md, Conventions): every mistake is a problem body that says what is
 * wrong and how to fix it, and no answer ever shows the service's insides.
 */
@IntegrationTest
class BadInputIntegrationTests {

    static final Pattern UUID_TEXT = Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
    static final int ONE_MIB = 1024 * 1024;

    TestService service;

    TestTenant tenant;
    Api api;

    @BeforeEach
    void newTenant(TestService service) {
        this.service = service;
        tenant = service.newTenant("bad-input-tests");
        api = tenant.chats();
    }

    @Test
    void unreadableBodiesAre400() {
        for (String body : new String[] {
            "{\"user_id\": ",
            "{user_id: \"a\"}",
            "{'user_id': 'a'}",
            "[]",
            "[{\"user_id\": \"a\"}]",
            "\"user_id\"",
            "42",
            "null",
            "",
            "{\"user_id\": \"a\"} x",
            "{\"user_id\": \"a\"}{\"user_id\": \"b\"}",
            "{\"user_id\": \"a\", \"user_id\": \"b\"}"
        }) {
            Reply reply = api.post("/api/v1/chats", body);
            assertValidationProblem(reply, body);
        }
        assertThat(api.get("/api/v1/chats/user/a").status()).isEqualTo(404);
    }

    @Test
    void aUserIdThatIsNotANonBlankStringIs400NamingIt() {
        for (String userId : new String[] {"42", "4.2", "true", "{}", "[]", "[\"a\"]", "null", "\"\"", "\"   \""}) {
            String body = "{\"user_id\": " + userId + "}";
            Reply reply = api.post("/api/v1/chats", body);
            assertValidationProblem(reply, body);
            assertThat(reply.json().get("errors").size()).as(body).isEqualTo(1);
            assertThat(reply.json().get("errors").get(0).get("field").asString())
                    .as(body)
                    .isEqualTo("user_id");
            assertThat(reply.json().get("errors").get(0).get("message").asString())
                    .isNotBlank();
        }
        Reply missing = api.post("/api/v1/chats", "{\"title\": \"No owner\"}");
        assertValidationProblem(missing, "no user_id");
        assertThat(missing.json().get("errors").get(0).get("field").asString()).isEqualTo("user_id");
    }

    @Test
    void metadataThatIsNotAnObjectIs400NamingIt() {
        for (String metadata : new String[] {"[]", "[1, 2]", "\"text\"", "42", "true"}) {
            String body = "{\"user_id\": \"student-1\", \"metadata\": " + metadata + "}";
            Reply reply = api.post("/api/v1/chats", body);
            assertValidationProblem(reply, body);
            assertThat(reply.json().get("errors").size()).as(body).isEqualTo(1);
            assertThat(reply.json().get("errors").get(0).get("field").asString())
                    .as(body)
                    .isEqualTo("metadata");
        }
        String chat = api.post("/api/v1/chats", "{\"user_id\": \"student-1\"}")
                .json()
                .get("id")
                .asString();
        Reply patch = api.patch("/api/v1/chats/" + chat, "{\"metadata\": [1]}");
        assertValidationProblem(patch, "PATCH metadata [1]");
        assertThat(patch.json().get("errors").get(0).get("field").asString()).isEqualTo("metadata");
        assertThat(api.get("/api/v1/chats/user/student-1").json().get("total").asInt())
                .isEqualTo(1);
    }

    @Test
    void aTitleOfTheWrongTypeIs400NamingIt() {
        Reply reply = api.post("/api/v1/chats", "{\"user_id\": \"student-1\", \"title\": 7}");

        assertValidationProblem(reply, "title 7");
        assertThat(reply.json().get("errors").get(0).get("field").asString()).isEqualTo("title");
    }

    @Test
    void aNulCharacterWhichNoTextCanHoldIs400AndStoresNothing() {
        for (String body : new String[] {
            "{\"user_id\": \"a\\u0000b\"}",
            "{\"user_id\": \"nul-owner\", \"title\": \"a\\u0000b\"}",
            "{\"user_id\": \"nul-owner\", \"metadata\": {\"k\": \"a\\u0000b\"}}",
            "{\"user_id\": \"nul-owner\", \"metadata\": {\"a\\u0000b\": 1}}"
        }) {
            Reply reply = api.post("/api/v1/chats", body);
            assertValidationProblem(reply, body);
            assertThat(reply.json().get("detail").asString()).contains("U+0000");
        }
        assertThat(api.get("/api/v1/chats/user/nul-owner").status()).isEqualTo(404);

        JsonNode created =
                api.post("/api/v1/chats", "{\"user_id\": \"nul-owner\"}").json();
        String chat = created.get("id").asString();
        assertValidationProblem(api.patch("/api/v1/chats/" + chat, "{\"title\": \"\\u0000\"}"), "PATCH title");
        assertThat(api.get("/api/v1/chats/" + chat).json().get("title")).isEqualTo(created.get("title"));
        assertThat(api.get("/api/v1/chats/user/a%00b").status()).isIn(400, 404);
    }

    @Test
    void halfASurrogatePairInAKeyIs400NamingItInWhateverCharsetTheBodyIsAndStoresNothing() {
        String body = "{\"user_id\": \"half-owner\", \"metadata\": {\"\\ud800\": \"algebra\"}}";
        for (String type : new String[] {"application/json", "application/json; charset=iso-8859-1"}) {
            Reply reply = api.send("POST", "/api/v1/chats", BodyPublishers.ofString(body), type);
            assertValidationProblem(reply, type);
            // the problem quotes the key as its escape: no UTF-8 can carry the half pair itself
            assertThat(reply.json().get("errors").get(0).get("field").asString())
                    .as(type)
                    .isEqualTo("metadata.\\uD800");
        }
        assertThat(api.get("/api/v1/chats/user/half-owner").status()).isEqualTo(404);
    }

    @Test
    void unknownFieldsAreIgnored() {
        Reply reply = api.post("/api/v1/chats", """
                {"user_id": "student-2", "colour": "blue", "nested": {"a": [1, 2]}, "tenant_id": "%s"}""".formatted(UUID.randomUUID()));

        assertThat(reply.status()).as(reply.toString()).isEqualTo(201);
        assertThat(reply.json().get("tenant_id").asString()).isEqualTo(tenant.id());
        assertThat(reply.text()).doesNotContain("colour");
    }

    @Test
    void aBodyOverOneMebibyteIs413() {
        byte[] body = largeBody();

        Reply announced = api.send("POST", "/api/v1/chats", BodyPublishers.ofByteArray(body), "application/json");
        Reply chunked = api.send(
                "POST",
                "/api/v1/chats",
                BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(body)),
                "application/json");

        for (Reply reply : new Reply[] {announced, chunked}) {
            assertProblem(reply, 413, "PAYLOAD_TOO_LARGE");
            assertThat(reply.header("Connection"))
                    .as("the unread body ends the connection")
                    .isEqualTo("close");
        }
        assertThat(api.get("/api/v1/chats/user/big").status()).isEqualTo(404);
        Reply justUnder = api.post(
                "/api/v1/chats",
                "{\"user_id\": \"big\", \"metadata\": {\"x\": \"" + "a".repeat(ONE_MIB - 100) + "\"}}");
        // past the body's size limit, to the fields' own: a chat's metadata holds 16 KiB at most (400, not 413)
        assertThat(justUnder.status()).as(justUnder.header("Content-Type")).isEqualTo(400);
        assertThat(justUnder.json().get("errors").get(0).get("field").asString())
                .isEqualTo("metadata");
    }

    @Test
    void aLargePatchIs413Too() {
        String chat = api.post("/api/v1/chats", "{\"user_id\": \"student-3\"}")
                .json()
                .get("id")
                .asString();

        Reply reply = api.send(
                "PATCH",
                "/api/v1/chats/" + chat,
                BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(largeBody())),
                "application/json");

        assertProblem(reply, 413, "PAYLOAD_TOO_LARGE");
    }

    @Test
    void aBodyThatIsNotJsonIs400() {
        for (String contentType : new String[] {"text/plain", "application/x-www-form-urlencoded", "application/xml"}) {
            Reply reply = api.send(
                    "POST", "/api/v1/chats", BodyPublishers.ofString("{\"user_id\": \"student-4\"}"), contentType);
            assertValidationProblem(reply, contentType);
        }
        Reply none = api.send("POST", "/api/v1/chats", BodyPublishers.ofString("{\"user_id\": \"student-4\"}"), null);
        assertValidationProblem(none, "no Content-Type");
        assertThat(api.get("/api/v1/chats/user/student-4").status()).isEqualTo(404);
        assertThat(api.send(
                                "POST",
                                "/api/v1/chats",
                                BodyPublishers.ofString("{\"user_id\": \"student-4\"}"),
                                "application/json; charset=utf-8")
                        .status())
                .isEqualTo(201);
    }

    @Test
    void unknownPathsAreProblems() {
        for (Reply reply : new Reply[] {
            api.get("/api/v1/nothing"),
            api.get("/api/v2/chats/" + UUID.randomUUID()),
            api.get("/nothing"),
            service.api().get("/nothing/at/all"),
            tenant.homework().get("/v1/nothing")
        }) {
            assertProblem(reply, 404, "NOT_FOUND");
        }
    }

    @Test
    void aWrongMethodIs405Problem() {
        for (Reply reply : new Reply[] {
            api.send("PUT", "/api/v1/chats", BodyPublishers.ofString("{\"user_id\": \"a\"}"), "application/json"),
            api.get("/api/v1/chats"),
            api.delete("/api/v1/chats/user/student-1"),
            tenant.homework().delete("/v1/homeworks")
        }) {
            assertProblem(reply, 405, "METHOD_NOT_ALLOWED");
            assertThat(reply.header("Allow")).as(reply.toString()).isNotBlank();
        }
    }

    @Test
    void aSaneRequestIdIsEchoedEverywhere() {
        String id = "client-req_42.a:b";
        Api traced = api.with("X-Request-Id", id);

        Reply created = traced.post("/api/v1/chats", "{\"user_id\": \"student-5\"}");
        Reply invalid = traced.post("/api/v1/chats", "{}");
        Reply notFound = traced.get("/api/v1/chats/" + UUID.randomUUID());
        Reply unauthorized = service.api().with("X-Request-Id", id).get("/api/v1/chats/" + UUID.randomUUID());

        for (Reply reply : new Reply[] {created, invalid, notFound, unauthorized}) {
            assertThat(reply.header("X-Request-Id")).as(reply.toString()).isEqualTo(id);
        }
        for (Reply reply : new Reply[] {invalid, notFound, unauthorized}) {
            assertThat(reply.json().get("request_id").asString()).isEqualTo(id);
        }
    }

    @Test
    void anAbsentOrInsaneRequestIdIsReplacedByANewOne() {
        Map<String, Reply> replies = Map.of(
                "created", api.post("/api/v1/chats", "{\"user_id\": \"student-6\"}"),
                "invalid", api.post("/api/v1/chats", "{\"user_id\": 1}"),
                "not found", api.get("/api/v1/chats/" + UUID.randomUUID()),
                "unauthorized", service.api().get("/api/v1/chats/x"),
                "no path", api.get("/nothing"),
                "wrong method", api.send("PUT", "/api/v1/chats", BodyPublishers.noBody(), null),
                "too large",
                        api.send("POST", "/api/v1/chats", BodyPublishers.ofByteArray(largeBody()), "application/json"),
                "evil id", api.with("X-Request-Id", "<script>alert(1)</script>").get("/api/v1/chats/x"),
                "long id", api.with("X-Request-Id", "a".repeat(129)).get("/api/v1/chats/x"),
                "health", service.api().get("/actuator/health"));

        replies.forEach((what, reply) -> {
            assertThat(reply.header("X-Request-Id")).as(what).matches(UUID_TEXT);
            if (reply.status() >= 400) {
                assertThat(reply.json().get("request_id").asString()).as(what).isEqualTo(reply.header("X-Request-Id"));
                assertNothingInternal(reply);
            }
        });
        assertThat(replies.values().stream().map(reply -> reply.header("X-Request-Id")))
                .doesNotHaveDuplicates();
    }

    @Test
    void nonUuidPathIdsAreNotFoundNeverAFailure() {
        for (String id : new String[] {"not-a-uuid", "123", "%20", "' OR 1=1 --", "a%2Eb", "%C3%A9"}) {
            for (Reply reply : new Reply[] {
                api.get("/api/v1/chats/" + id.replace(" ", "%20").replace("'", "%27")),
                tenant.homework().get("/v1/homeworks/" + id.replace(" ", "%20").replace("'", "%27"))
            }) {
                assertThat(reply.status()).as(id + ": " + reply).isIn(400, 404);
                assertNothingInternal(reply);
            }
        }
    }

    @Test
    void requestsTheServerRejectsBeforeRoutingAreProblemsToo() {
        for (String path : new String[] {"/api/v1/chats/..%2F..", "/api/v1/chats/a%00b", "/v1/homeworks/%2e%2e%2f"}) {
            Reply reply = api.get(path);
            assertThat(reply.status()).as(path + ": " + reply).isIn(400, 404);
            assertThat(reply.header("Content-Type")).as(path + ": " + reply).startsWith("application/problem+json");
            assertThat(reply.json().get("fix").asString()).isNotBlank();
            assertThat(reply.header("X-Request-Id")).isNotBlank();
            assertNothingInternal(reply);
        }
        Reply hugeHeader = api.with("X-Padding", "p".repeat(20 * 1024)).get("/api/v1/chats/" + UUID.randomUUID());
        assertThat(hugeHeader.status()).as(hugeHeader.toString()).isEqualTo(431);
        assertThat(hugeHeader.header("Content-Type")).startsWith("application/problem+json");
        assertThat(hugeHeader.json().get("request_id").asString()).isEqualTo(hugeHeader.header("X-Request-Id"));
        assertNothingInternal(hugeHeader);
    }

    private static byte[] largeBody() {
        String json = "{\"user_id\": \"big\", \"metadata\": {\"x\": \"" + "a".repeat(ONE_MIB + 10) + "\"}}";
        return json.getBytes(StandardCharsets.UTF_8);
    }

    private static void assertValidationProblem(Reply reply, String sent) {
        assertProblem(reply, 400, "VALIDATION_ERROR");
        assertThat(reply.json().get("errors").isArray()).as(sent).isTrue();
    }

    private static void assertProblem(Reply reply, int status, String code) {
        assertThat(reply.status()).as(reply.toString()).isEqualTo(status);
        assertThat(reply.header("Content-Type")).as(reply.toString()).startsWith("application/problem+json");
        assertThat(reply.fieldNames())
                .as(reply.toString())
                .contains("type", "title", "status", "detail", "code", "fix", "errors", "request_id");
        assertThat(reply.json().get("status").asInt()).isEqualTo(status);
        assertThat(reply.json().get("code").asString()).as(reply.toString()).isEqualTo(code);
        assertThat(reply.json().get("fix").asString()).as(reply.toString()).isNotBlank();
        assertThat(reply.json().get("request_id").asString()).isNotBlank().isEqualTo(reply.header("X-Request-Id"));
        assertNothingInternal(reply);
    }

    /** No class names, stack frames or framework messages leak into an answer. */
    private static void assertNothingInternal(Reply reply) {
        assertThat(reply.text())
                .as(reply.toString())
                .doesNotContain("Exception")
                .doesNotContain("\tat ")
                .doesNotContain("at com.")
                .doesNotContain("at org.")
                .doesNotContain("java.")
                .doesNotContain("tools.jackson")
                .doesNotContain("springframework")
                .doesNotContainIgnoringCase("<html");
    }
}
