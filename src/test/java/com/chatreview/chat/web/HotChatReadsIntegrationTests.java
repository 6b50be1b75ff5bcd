package com.chatreview.chat.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.chat.ChatId;
import com.chatreview.chat.ChatManagement;
import com.chatreview.chat.NewMessage;
import com.chatreview.support.Api;
import com.chatreview.support.Api.Reply;
import com.chatreview.support.IntegrationTest;
import com.chatreview.support.SingleNodeToo;
import com.chatreview.support.TestService;
import com.chatreview.support.TestTenant;
import com.chatreview.tenancy.TenantId;
import com.chatreview.web.HotAnswer;
import com.chatreview.web.HotRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.handler.ContextHandler;
import org.eclipse.jetty.util.Attributes;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.jetty.JettyWebServer;
import org.springframework.boot.web.server.context.WebServerApplicationContext;

/**
 * Get-chat and a page of messages served ahead of the servlet container ({@link HotChatReads}): it answers the plain
 * requests itself and leaves every other one to Spring MVC; either way the answer is the same, and neither the tenant's
 * quota nor the address's failure budget is spent twice for one request.
 */
@SingleNodeToo
@IntegrationTest
class HotChatReadsIntegrationTests {

    /** An Accept the fast path leaves to Spring MVC (asserted), for the same request answered by the framework. */
    private static final String FRAMEWORK_ACCEPT = "application/json, text/plain";

    private static final String ODD_CONTENT = "\"quoted\" \\ back\\slash, ünïcödé 😀 <b>tag</b>\n\ttab \u0001";

    TestService service;

    @Autowired
    ChatManagement chats;

    @Autowired
    HotChatReads hotReads;

    TestTenant tenant;
    Api api;
    String chatId;

    @BeforeEach
    void aChatWithMessages(TestService service) {
        this.service = service;
        tenant = service.newTenant("hot reads");
        api = tenant.chats();
        chatId = api.post("/api/v1/chats", "{\"user_id\": \"student\", \"metadata\": {\"course\": \"algebra\"}}")
                .json()
                .get("id")
                .asString();
        TenantId tenantId = tenant.tenantId();
        for (int i = 0; i < 5; i++) {
            chats.append(
                    tenantId,
                    ChatId.of(UUID.fromString(chatId)),
                    i % 2 == 0
                            ? NewMessage.fromUser(ODD_CONTENT + i, Map.of("n", i, "s", "ä\""), "client-" + i)
                            : NewMessage.fromAssistant("answer " + i, Map.of()));
        }
    }

    @Test
    void servesThePlainReadsItselfAndLeavesEveryOtherToSpringMvc() {
        String chat = "/api/v1/chats/" + chatId;
        assertThat(servedItself(get(chat))).isTrue();
        assertThat(servedItself(get(chat + "/messages"))).isTrue();
        assertThat(servedItself(get(chat + "/messages", "offset=1&limit=2&order=desc")))
                .isTrue();
        assertThat(servedItself(get(chat, r -> r.addHeader("Accept", "application/json"))))
                .isTrue();
        String tag = api.get(chat).header("ETag");
        HotAnswer notModified = hotReads.answer(
                get(chat, r -> r.addHeader("If-None-Match", tag)).hot());
        assertThat(notModified).isNotNull();
        assertThat(notModified.status()).isEqualTo(304);
        assertThat(notModified.headers()).containsEntry("ETag", tag);

        TestTenant other = service.newTenant("someone else");
        List<Request> passedOn = new ArrayList<>(List.of(
                get("/api/v1/chats/" + UUID.randomUUID()),
                get("/api/v1/chats/" + chatId.toUpperCase()),
                get(chat + "/"),
                get(chat + "/messages/"),
                get(chat, "order=desc"),
                get(chat + "/messages", "limit=0"),
                get(chat + "/messages", "limit=1&limit=2"),
                get(chat + "/messages", "limit=%zz"),
                get(chat + "/messages", "page=2"),
                get(chat, r -> r.addHeader("Accept", "text/html")),
                // the header the equivalence test reaches Spring MVC with: if the fast path took it, that test
                // would compare the fast path with itself
                get(chat, r -> r.addHeader("Accept", FRAMEWORK_ACCEPT)),
                get(chat + "/messages", r -> r.addHeader("Accept", FRAMEWORK_ACCEPT)),
                get(chat, r -> r.headers.remove("X-API-Key")),
                get(chat, withKey("crs_not-a-key")),
                get(chat, withKey(other.apiKey())),
                // Spring's comparison answers these: weak, a list, any
                get(chat, r -> r.addHeader("If-None-Match", "W/" + tag)),
                get(chat, r -> r.addHeader("If-None-Match", tag + ", \"0000000000000000\"")),
                get(chat, r -> r.addHeader("If-None-Match", "*"))));
        for (Request request : passedOn) {
            assertThat(servedItself(request)).as("%s", request).isFalse();
        }
    }

    @Test
    void theRouteIsServedAheadOfTheServletContext(@Autowired WebServerApplicationContext context) {
        Server jetty = ((JettyWebServer) Objects.requireNonNull(context.getWebServer())).getServer();
        Handler handler = jetty.getHandler();
        List<String> chain = new ArrayList<>();
        while (handler instanceof Handler.Singleton wrapper && !(handler instanceof ContextHandler)) {
            chain.add(handler.getClass().getName());
            handler = wrapper.getHandler();
        }
        assertThat(handler).isInstanceOf(ContextHandler.class);
        assertThat(chain)
                .as("the handlers around the servlet context")
                .anyMatch(name -> name.startsWith("com.chatreview.web.HotReads"));
    }

    @Test
    void theAnswerIsTheSameAsSpringMvcGivesByteForByte() {
        String chat = "/api/v1/chats/" + chatId;
        String empty = "/api/v1/chats/"
                + api.post("/api/v1/chats", "{\"user_id\": \"student\"}")
                        .json()
                        .get("id")
                        .asString();
        for (String path : List.of(
                chat,
                chat + "/messages",
                chat + "/messages?offset=1&limit=3&order=desc",
                chat + "/messages?limit=100&order=asc",
                chat + "/messages?limit=1",
                chat + "/messages?offset=0&limit=100&order=desc",
                chat + "/messages?offset=4&limit=1&order=asc",
                chat + "/messages?offset=9",
                empty,
                empty + "/messages",
                empty + "/messages?order=desc")) {
            String query = path.contains("?") ? path.substring(path.indexOf('?') + 1) : null;
            String bare = path.contains("?") ? path.substring(0, path.indexOf('?')) : path;
            assertThat(servedItself(get(bare, query, r -> r.addHeader("Accept", "application/json"))))
                    .as("the fast path answers " + path)
                    .isTrue();
            assertThat(servedItself(get(bare, query, r -> r.addHeader("Accept", FRAMEWORK_ACCEPT))))
                    .as("Spring MVC answers " + path + " with Accept: " + FRAMEWORK_ACCEPT)
                    .isFalse();
            Reply hot = api.with("Accept", "application/json").get(path);
            Reply framework = api.with("Accept", FRAMEWORK_ACCEPT).get(path);
            assertThat(hot.status()).as(path).isEqualTo(200);
            assertThat(hot.text()).as(path).isEqualTo(framework.text());
            for (String header :
                    List.of("Content-Type", "Content-Length", "ETag", "X-RateLimit-Limit", "RateLimit-Policy")) {
                assertThat(hot.header(header)).as(path + " " + header).isEqualTo(framework.header(header));
            }
            assertThat(hot.header("X-Request-Id")).isNotBlank();
            assertThat(api.with("X-Request-Id", "trace.7").get(path).header("X-Request-Id"))
                    .isEqualTo("trace.7");

            Reply unchanged = api.with("If-None-Match", hot.header("ETag")).get(path);
            Reply unchangedByFramework = api.with("If-None-Match", hot.header("ETag"))
                    .with("Accept", FRAMEWORK_ACCEPT)
                    .get(path);
            assertThat(unchanged.status()).as(path).isEqualTo(304);
            assertThat(unchangedByFramework.status()).as(path).isEqualTo(304);
            assertThat(unchanged.header("ETag")).isEqualTo(unchangedByFramework.header("ETag"));
        }
        assertThat(api.get(chat + "/messages?limit=1")
                        .json()
                        .get("messages")
                        .get(0)
                        .get("content")
                        .asString())
                .isEqualTo(ODD_CONTENT + 0);
    }

    @Test
    void aRequestLeftToSpringMvcSpendsTheQuotaOnce() {
        String chat = "/api/v1/chats/" + chatId;
        List<Long> remaining = new ArrayList<>();
        for (String path : List.of(
                chat,
                "/api/v1/chats/" + UUID.randomUUID(),
                chat + "/messages",
                chat + "/messages?limit=0",
                chat,
                "/api/v1/chats/" + UUID.randomUUID() + "/messages")) {
            remaining.add(Long.parseLong(api.get(path).header("X-RateLimit-Remaining")));
        }
        for (int i = 1; i < remaining.size(); i++) {
            assertThat(remaining.get(i))
                    .as("after request %d of %s", i, remaining)
                    .isEqualTo(remaining.get(i - 1) - 1);
        }
    }

    @Test
    void aWrongKeyCountsOnceAgainstTheAddress() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        Api guesser = service.api()
                .with("X-Forwarded-For", "10.78." + random.nextInt(256) + "." + random.nextInt(1, 255))
                .with("X-API-Key", "crs_not-a-key");
        for (int i = 0; i < 60; i++) {
            assertThat(guesser.get("/api/v1/chats/" + chatId).status())
                    .as("failure %d of the address's 60 a minute", i + 1)
                    .isEqualTo(401);
        }
        assertThat(guesser.get("/api/v1/chats/" + chatId + "/messages").status())
                .isEqualTo(429);
    }

    /** Whether the route answers; it leaves a request to Spring MVC by answering null or by throwing (not found). */
    private boolean servedItself(Request request) {
        try {
            return hotReads.answer(request.hot()) != null;
        } catch (RuntimeException leftToTheController) {
            return false;
        }
    }

    private static Consumer<Request> withKey(String key) {
        return request -> {
            request.headers.remove("X-API-Key");
            request.addHeader("X-API-Key", key);
        };
    }

    private Request get(String path) {
        return get(path, null, r -> {});
    }

    private Request get(String path, String query) {
        return get(path, query, r -> {});
    }

    private Request get(String path, Consumer<Request> change) {
        return get(path, null, change);
    }

    private Request get(String path, @Nullable String query, Consumer<Request> change) {
        // an address of its own: the requests with a wrong key spend no other test's budget
        ThreadLocalRandom random = ThreadLocalRandom.current();
        Request request = new Request(path, query, "10.79." + random.nextInt(256) + "." + random.nextInt(1, 255));
        request.addHeader("X-API-Key", tenant.apiKey());
        change.accept(request);
        return request;
    }

    /** A GET as the hot handler hands it to the route. */
    private static final class Request {
        final String path;
        final @Nullable String query;
        final String remoteAddress;
        final HttpFields.Mutable headers = HttpFields.build();

        Request(String path, @Nullable String query, String remoteAddress) {
            this.path = path;
            this.query = query;
            this.remoteAddress = remoteAddress;
        }

        void addHeader(String name, String value) {
            headers.add(name, value);
        }

        HotRequest hot() {
            return new HotRequest(path, query, headers, remoteAddress, new Attributes.Mapped());
        }

        @Override
        public String toString() {
            return "GET " + path + (query == null ? "" : "?" + query) + " " + headers.asImmutable();
        }
    }
}
