package com.chatreview.chatui;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.chat.ChatId;
import com.chatreview.chat.ChatManagement;
import com.chatreview.chat.NewMessage;
import com.chatreview.sealing.Sealer;
import com.chatreview.support.Api;
import com.chatreview.support.ChatSocket;
import com.chatreview.support.IntegrationTest;
import com.chatreview.support.TestService;
import com.chatreview.support.TestTenant;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;

/**
 * The chat page's API over real sockets: no tenant key, the link (or an embed token) as the credential, the
 * tenant's page settings and what they change: frame-ancestors, tokens, WebSocket origins.
 */
@IntegrationTest
class ChatUiIntegrationTests {

    TestService service;

    @Autowired
    EmbedTokens tokens;

    @Autowired
    ChatManagement chats;

    @Autowired
    JdbcClient jdbc;

    @Autowired
    Sealer sealer;

    TestTenant tenant;
    Api api;
    Api anonymous;

    @BeforeEach
    void newTenant(TestService service) {
        this.service = service;
        tenant = service.newTenant("chat-ui-tests");
        api = tenant.chats();
        anonymous = service.api();
    }

    @Test
    void thePageIsServedWithAStrictPolicyAndMayBeFramedAnywhereByDefault() {
        String chatId = createChat("owner");
        for (String path : new String[] {"/chat/?chat_id=" + chatId, "/chat?chat_id=" + chatId}) {
            Api.Reply page = anonymous.get(path);
            assertThat(page.status()).isEqualTo(200);
            assertThat(page.header("Content-Type")).startsWith("text/html");
            assertThat(page.text()).contains("/chat/assets/chat.js").doesNotContain("<script>");
            String policy = page.header("Content-Security-Policy");
            assertThat(policy)
                    .contains("default-src 'none'", "script-src 'self'", "connect-src 'self'", "frame-ancestors *");
            assertThat(policy).doesNotContain("unsafe-inline", "unsafe-eval");
            assertThat(page.header("Referrer-Policy")).isEqualTo("no-referrer");
            assertThat(page.header("X-Frame-Options")).isNull();
        }
        assertThat(anonymous.get("/chat/assets/chat.js").status()).isEqualTo(200);
        assertThat(anonymous.get("/webjars/marked/lib/marked.umd.js").status()).isEqualTo(200);
        assertThat(anonymous.get("/webjars/dompurify/dist/purify.min.js").status())
                .isEqualTo(200);
    }

    @Test
    void theHistoryNeedsNoTenantKeyAndShowsWhatTheOwnerSees() {
        String chatId = createChat("owner");
        try (ChatSocket socket = page(chatId).connect()) {
            JsonNode established = socket.next();
            assertThat(established.get("event_type").asString()).isEqualTo("connection_established");
            assertThat(established.get("user_id").asString()).isEqualTo("owner");
            socket.send("{\"content\": \"What is 1/2 + 1/3?\", \"client_message_id\": \"c-1\"}");
            assertThat(socket.awaitReplyEnd().getLast().get("event_type").asString())
                    .isEqualTo("message_stream_ended");
        }

        Api.Reply history = anonymous.get("/chat-ui/api/chats/" + chatId);
        assertThat(history.status()).isEqualTo(200);
        assertThat(history.header("Cache-Control")).contains("no-store");
        JsonNode body = history.json();
        assertThat(body.get("chat").get("id").asString()).isEqualTo(chatId);
        assertThat(body.get("chat").get("user_id").asString()).isEqualTo("owner");
        assertThat(body.get("chat").get("status").asString()).isEqualTo("active");
        assertThat(body.get("chat").has("config"))
                .as("the tenant's metadata stays with the tenant")
                .isFalse();
        JsonNode messages = body.get("messages");
        assertThat(messages.size()).isEqualTo(2);
        assertThat(messages.get(0).get("sender_role").asString()).isEqualTo("user");
        assertThat(messages.get(0).get("content").asString()).isEqualTo("What is 1/2 + 1/3?");
        assertThat(messages.get(0).get("client_message_id").asString()).isEqualTo("c-1");
        assertThat(messages.get(1).get("sender_role").asString()).isEqualTo("assistant");
        assertThat(body.get("last_seq").asLong())
                .isEqualTo(messages.get(1).get("seq").asLong())
                .isPositive();
        assertThat(messages.get(0).has("metadata")).isFalse();
    }

    @Test
    void aLongHistoryComesInPagesOfFiveHundredTheLatestFirst() {
        String chatId = createChat("owner");
        for (int i = 0; i < 520; i++) {
            chats.append(
                    tenant.tenantId(),
                    ChatId.of(UUID.fromString(chatId)),
                    NewMessage.fromUser("message " + i, Map.of(), null));
        }

        JsonNode latest = anonymous.get("/chat-ui/api/chats/" + chatId).json();
        assertThat(latest.get("messages").size()).isEqualTo(500);
        assertThat(latest.get("messages").get(0).get("content").asString()).isEqualTo("message 20");
        assertThat(latest.get("messages").get(499).get("content").asString()).isEqualTo("message 519");
        assertThat(latest.get("offset").asInt()).isEqualTo(20);
        assertThat(latest.get("has_more").asBoolean()).isTrue();

        JsonNode earlier =
                anonymous.get("/chat-ui/api/chats/" + chatId + "?before=20").json();
        assertThat(earlier.get("messages")
                        .valueStream()
                        .map(message -> message.get("content").asString()))
                .containsExactlyElementsOf(
                        IntStream.range(0, 20).mapToObj(i -> "message " + i).toList());
        assertThat(earlier.get("offset").asInt()).isZero();
        assertThat(earlier.get("has_more").asBoolean()).isFalse();
        assertThat(anonymous
                        .get("/chat-ui/api/chats/" + chatId + "?before=0")
                        .json()
                        .get("messages")
                        .size())
                .isZero();

        for (String bad : new String[] {"-1", "x", "1.5"}) {
            Api.Reply refused = anonymous.get("/chat-ui/api/chats/" + chatId + "?before=" + bad);
            assertThat(refused.status()).as(bad).isEqualTo(400);
            assertThat(refused.json().get("code").asString()).isEqualTo("VALIDATION_ERROR");
        }
        JsonNode small =
                anonymous.get("/chat-ui/api/chats/" + createChat("owner")).json();
        assertThat(small.get("offset").asInt()).isZero();
        assertThat(small.get("has_more").asBoolean()).isFalse();
    }

    @Test
    void aChatThatDoesNotExistIs404() {
        for (String id : new String[] {UUID.randomUUID().toString(), "not-a-uuid"}) {
            Api.Reply reply = anonymous.get("/chat-ui/api/chats/" + id);
            assertThat(reply.status()).isEqualTo(404);
            assertThat(reply.header("Content-Type")).startsWith("application/problem+json");
            assertThat(reply.json().get("code").asString()).isEqualTo("NOT_FOUND");
            assertThat(reply.json().get("fix").asString()).isNotBlank();
        }
        try (ChatSocket socket = page(UUID.randomUUID().toString()).connect()) {
            assertThat(socket.next().get("error_code").asString()).isEqualTo("CHAT_NOT_FOUND");
            assertThat(socket.awaitClose()).isEqualTo(4404);
        }
        try (ChatSocket socket =
                ChatSocket.to(service.port()).path("/ws/chat-ui").connect()) {
            assertThat(socket.next().get("error_code").asString()).isEqualTo("AUTH_ERROR");
            assertThat(socket.awaitClose()).isEqualTo(4401);
        }
    }

    /** Each chat's page may load its history 60 times a minute (chat-ui.page-requests-per-minute); others go on. */
    @Test
    void aChatsPageLoadsSixtyTimesAMinuteAndOtherChatsAreNotHeldUp() {
        String busy = createChat("owner");
        String other = createChat("owner");
        for (int i = 0; i < 60; i++) {
            assertThat(anonymous.get("/chat-ui/api/chats/" + busy).status())
                    .as("load " + (i + 1))
                    .isEqualTo(200);
        }

        Api.Reply refused = anonymous.get("/chat-ui/api/chats/" + busy);
        assertThat(refused.status()).isEqualTo(429);
        assertThat(refused.json().get("code").asString()).isEqualTo("RATE_LIMITED");
        assertThat(refused.json().get("detail").asString())
                .isEqualTo("This chat's page was loaded more than 60 times this minute");
        assertThat(Long.parseLong(refused.header("Retry-After"))).isBetween(1L, 60L);
        assertThat(anonymous.get("/chat-ui/api/chats/" + other).status()).isEqualTo(200);
        assertThat(api.get("/api/v1/chats/" + busy).status())
                .as("the tenant's own API is not the page's allowance")
                .isEqualTo(200);
    }

    /**
     * An address that keeps naming chats that do not exist is stopped like one guessing keys (60 failures a minute),
     * before any look-up; a link it opened lately is still heard, and other addresses are not held up.
     */
    @Test
    void anAddressNamingMissingChatsIsStoppedButItsKnownLinkAndOtherAddressesAreNot() {
        String known = createChat("owner");
        Api guesser = anonymous.with("X-Forwarded-For", "10.250." + (int) (Math.random() * 250) + ".7");
        assertThat(guesser.get("/chat-ui/api/chats/" + known).status()).isEqualTo(200);
        for (int i = 0; i < 60; i++) {
            assertThat(guesser.get("/chat-ui/api/chats/" + UUID.randomUUID()).status())
                    .as("guess " + (i + 1))
                    .isEqualTo(404);
        }

        Api.Reply stopped = guesser.get("/chat-ui/api/chats/" + UUID.randomUUID());
        assertThat(stopped.status()).isEqualTo(429);
        assertThat(stopped.json().get("code").asString()).isEqualTo("RATE_LIMITED");
        assertThat(stopped.header("Retry-After")).isEqualTo("60");
        assertThat(guesser.get("/chat-ui/api/chats/" + known).status())
                .as("the link this address opened lately")
                .isEqualTo(200);
        assertThat(anonymous.get("/chat-ui/api/chats/" + UUID.randomUUID()).status())
                .as("another address")
                .isEqualTo(404);
    }

    /**
     * The failure budget refuses guesses, never valid links: from a spent address a link that no node opened yet
     * (created over REST a moment ago) still opens, through a look-up of the address's own bounded budget (600 a
     * minute; guesses spend it too, and stay refused with 429), and a link with an embed token that verifies opens
     * with no look-up at all, even past that budget.
     */
    @Test
    void aSpentAddressStillOpensValidLinksAndGuessesCostABoundedNumberOfLookUps() {
        Api spent = anonymous.with("X-Forwarded-For", "10.251." + (int) (Math.random() * 250) + ".9");
        for (int i = 0; i < 60; i++) {
            assertThat(spent.get("/chat-ui/api/chats/" + UUID.randomUUID()).status())
                    .isEqualTo(404);
        }
        String neverOpened = createChat("owner");
        assertThat(spent.get("/chat-ui/api/chats/" + neverOpened).status())
                .as("a link created a moment ago, opened nowhere yet")
                .isEqualTo(200);

        for (int i = 0; i < 598; i++) {
            assertThat(spent.get("/chat-ui/api/chats/" + UUID.randomUUID()).status())
                    .as("a guess from the spent address: refused as one, whatever its look-up found")
                    .isEqualTo(429);
        }
        assertThat(spent.get("/chat-ui/api/chats/" + createChat("owner")).status())
                .as("the 600th look-up of the minute")
                .isEqualTo(200);

        String withToken = createChat("owner");
        String token = api.post("/api/v1/chats/" + withToken + "/embed-token", "{}")
                .json()
                .get("token")
                .asString();
        assertThat(spent.get("/chat-ui/api/chats/" + withToken).status())
                .as("no look-up left, and no token: refused without one")
                .isEqualTo(429);
        assertThat(spent.with("X-Embed-Token", token)
                        .get("/chat-ui/api/chats/" + withToken)
                        .status())
                .as("an embed token that verifies is always heard")
                .isEqualTo(200);
        assertThat(spent.with("X-Embed-Token", token)
                        .get("/chat-ui/api/chats/" + createChat("owner"))
                        .status())
                .as("a token of another chat vouches for nothing")
                .isEqualTo(429);
    }

    @Test
    void aDeletedChatsPageSaysNotFound() {
        String chatId = createChat("owner");
        assertThat(api.delete("/api/v1/chats/" + chatId).status()).isEqualTo(200);
        assertThat(anonymous.get("/chat-ui/api/chats/" + chatId).status()).isEqualTo(404);
    }

    @Test
    void settingsStartAtTheDefaultsAndAreCheckedWhenChanged() {
        JsonNode defaults = api.get("/api/v1/chat-ui/settings").json();
        assertThat(defaults.get("require_embed_token").asBoolean()).isFalse();
        assertThat(defaults.get("frame_ancestors").isNull()).isTrue();
        assertThat(defaults.get("allowed_origins").isNull()).isTrue();

        Api.Reply wrong = api.put(
                "/api/v1/chat-ui/settings",
                "{\"frame_ancestors\": [\"https://ok.example.org\", \"https://x.org; script-src *\"],"
                        + " \"allowed_origins\": [\"https://a.org/path\"]}");
        assertThat(wrong.status()).isEqualTo(400);
        assertThat(wrong.json().get("code").asString()).isEqualTo("VALIDATION_ERROR");
        assertThat(wrong.json().get("errors").size()).isEqualTo(2);

        assertThat(anonymous.put("/api/v1/chat-ui/settings", "{}").status()).isEqualTo(401);
    }

    @Test
    void theTenantDecidesWhoMayFrameThePage() {
        String chatId = createChat("owner");
        putSettings("{\"frame_ancestors\": [\"https://LMS.example.org/\", \"https://*.school.example\", \"'self'\"]}");
        assertThat(anonymous.get("/chat/?chat_id=" + chatId).header("Content-Security-Policy"))
                .endsWith("frame-ancestors https://lms.example.org https://*.school.example 'self'");

        putSettings("{\"frame_ancestors\": []}");
        assertThat(anonymous.get("/chat/?chat_id=" + chatId).header("Content-Security-Policy"))
                .endsWith("frame-ancestors 'none'");

        String otherTenantsChat = service.newTenant("other")
                .chats()
                .post("/api/v1/chats", "{\"user_id\": \"u\"}")
                .json()
                .get("id")
                .asString();
        assertThat(anonymous.get("/chat/?chat_id=" + otherTenantsChat).header("Content-Security-Policy"))
                .endsWith("frame-ancestors *");
    }

    @Test
    void aTenantThatRequiresEmbedTokensRefusesTheBareLink() {
        String chatId = createChat("owner");
        String otherChat = createChat("owner");
        putSettings("{\"require_embed_token\": true}");

        Api.Reply bare = anonymous.get("/chat-ui/api/chats/" + chatId);
        assertThat(bare.status()).isEqualTo(401);
        assertThat(bare.json().get("code").asString()).isEqualTo("EMBED_TOKEN_REQUIRED");
        assertThat(bare.json().get("fix").asString()).contains("embed-token");

        Api.Reply minted = api.post("/api/v1/chats/" + chatId + "/embed-token", "{\"ttl_seconds\": 600}");
        assertThat(minted.status()).isEqualTo(201);
        String token = minted.json().get("token").asString();
        Instant expiresAt = Instant.parse(minted.json().get("expires_at").asString());
        assertThat(expiresAt)
                .isBetween(Instant.now().plusSeconds(590), Instant.now().plusSeconds(610));
        assertThat(minted.json().get("chat_ui_url").asString())
                .isEqualTo("http://127.0.0.1:" + service.port() + "/chat/?chat_id=" + chatId + "&token=" + token);

        assertThat(anonymous
                        .get("/chat-ui/api/chats/" + chatId + "?token=" + token)
                        .status())
                .isEqualTo(200);
        assertThat(anonymous
                        .with("X-Embed-Token", token)
                        .get("/chat-ui/api/chats/" + chatId)
                        .status())
                .isEqualTo(200);

        Api.Reply otherChatsToken = anonymous.get("/chat-ui/api/chats/" + otherChat + "?token=" + token);
        assertThat(otherChatsToken.status()).isEqualTo(401);
        assertThat(otherChatsToken.json().get("code").asString()).isEqualTo("EMBED_TOKEN_INVALID");

        String tampered = token.substring(0, token.length() - 2) + (token.endsWith("AA") ? "BB" : "AA");
        assertThat(anonymous
                        .get("/chat-ui/api/chats/" + chatId + "?token=" + tampered)
                        .json()
                        .get("code")
                        .asString())
                .isEqualTo("EMBED_TOKEN_INVALID");

        String expired = tokens.mint(
                        tenant.uuid(),
                        ChatId.of(UUID.fromString(chatId)),
                        Instant.now().minusSeconds(1))
                .token();
        Api.Reply late = anonymous.get("/chat-ui/api/chats/" + chatId + "?token=" + expired);
        assertThat(late.status()).isEqualTo(401);
        assertThat(late.json().get("code").asString()).isEqualTo("EMBED_TOKEN_EXPIRED");

        try (ChatSocket socket = page(chatId).connect()) {
            JsonNode refused = socket.next();
            assertThat(refused.get("error_code").asString()).isEqualTo("AUTH_ERROR");
            assertThat(refused.get("details").get("fix").asString()).contains("embed-token");
            assertThat(socket.awaitClose()).isEqualTo(4401);
        }
        try (ChatSocket socket = page(chatId).query("token", expired).connect()) {
            assertThat(socket.next().get("error_message").asString()).contains("expired");
            assertThat(socket.awaitClose()).isEqualTo(4401);
        }
        try (ChatSocket socket = page(chatId).query("token", token).connect()) {
            assertThat(socket.next().get("event_type").asString()).isEqualTo("connection_established");
        }

        // long enough to connect on a loaded machine (the token holds whole seconds: 4 to 5 s)
        EmbedToken shortLived = tokens.mint(
                tenant.uuid(), ChatId.of(UUID.fromString(chatId)), Instant.now().plusSeconds(5));
        try (ChatSocket socket = page(chatId).query("token", shortLived.token()).connect()) {
            assertThat(socket.next().get("event_type").asString()).isEqualTo("connection_established");
            JsonNode expiredWhileOpen = socket.awaitEvent("error", Duration.ofSeconds(20));
            // the close is scheduled in whole milliseconds, so it may come a fraction of one early
            assertThat(Instant.now()).isAfterOrEqualTo(shortLived.expiresAt().minusMillis(10));
            assertThat(expiredWhileOpen.get("error_code").asString()).isEqualTo("AUTH_ERROR");
            assertThat(expiredWhileOpen.get("error_message").asString()).contains("expired");
            assertThat(socket.awaitClose()).isEqualTo(4401);
        }
    }

    /** A database dump alone cannot mint a token: the key that signs them is stored sealed. */
    @Test
    void theKeyThatSignsEmbedTokensIsStoredSealed() {
        String chatId = createChat("owner");
        assertThat(api.post("/api/v1/chats/" + chatId + "/embed-token", "{}").status())
                .isEqualTo(201);

        byte[] stored = jdbc.sql("SELECT secret FROM chat_ui_signing_keys WHERE id = 1")
                .query(byte[].class)
                .single();

        assertThat(stored).hasSize(32 + Sealer.OVERHEAD);
        assertThat(sealer.open(stored)).hasSize(32);
    }

    @Test
    void embedTokensAreMintedOnlyForTheTenantsOwnChatsAndSensibleLifetimes() {
        String chatId = createChat("owner");
        TestTenant other = service.newTenant("other");
        assertThat(other.chats()
                        .post("/api/v1/chats/" + chatId + "/embed-token", "{}")
                        .status())
                .isEqualTo(404);
        assertThat(anonymous
                        .post("/api/v1/chats/" + chatId + "/embed-token", "{}")
                        .status())
                .isEqualTo(401);
        Api.Reply tooLong = api.post("/api/v1/chats/" + chatId + "/embed-token", "{\"ttl_seconds\": 999999}");
        assertThat(tooLong.status()).isEqualTo(400);
        assertThat(tooLong.json().get("errors").get(0).get("field").asString()).isEqualTo("ttl_seconds");
        Api.Reply noBody = api.send(
                "POST",
                "/api/v1/chats/" + chatId + "/embed-token",
                java.net.http.HttpRequest.BodyPublishers.noBody(),
                null);
        assertThat(noBody.status()).isEqualTo(201);
        assertThat(Instant.parse(noBody.json().get("expires_at").asString()))
                .isBetween(Instant.now().plusSeconds(3590), Instant.now().plusSeconds(3610));
    }

    @Test
    void aTenantThatListsOriginsRefusesWebSocketsFromOthers() {
        String chatId = createChat("owner");
        putSettings("{\"allowed_origins\": [\"https://lms.example.org\"]}");

        try (ChatSocket socket =
                page(chatId).header("Origin", "https://evil.example.com").connect()) {
            JsonNode refused = socket.next();
            assertThat(refused.get("error_code").asString()).isEqualTo("ORIGIN_NOT_ALLOWED");
            assertThat(refused.get("details").get("fix").asString()).isNotBlank();
            assertThat(socket.awaitClose()).isEqualTo(4403);
        }
        for (String origin : new String[] {"https://lms.example.org", "http://127.0.0.1:" + service.port()}) {
            try (ChatSocket socket = page(chatId).header("Origin", origin).connect()) {
                assertThat(socket.next().get("event_type").asString()).isEqualTo("connection_established");
            }
        }
        try (ChatSocket socket = page(chatId).connect()) {
            assertThat(socket.next().get("event_type").asString())
                    .as("no Origin: not a browser page")
                    .isEqualTo("connection_established");
        }
    }

    @Test
    void oneChatsLinkOpensAFewConnectionsNotTheTenantsWholeAllowance() {
        String chatId = createChat("owner");
        List<ChatSocket> open = new ArrayList<>();
        try {
            for (int i = 0; i < 5; i++) {
                ChatSocket socket = page(chatId).connect();
                open.add(socket);
                assertThat(socket.next().get("event_type").asString()).isEqualTo("connection_established");
            }
            try (ChatSocket sixth = page(chatId).connect()) {
                JsonNode refused = sixth.next();
                assertThat(refused.get("error_code").asString()).isEqualTo("CONNECTION_LIMIT_EXCEEDED");
                assertThat(refused.get("details").get("limit").asInt()).isEqualTo(5);
                assertThat(refused.get("details").get("fix").asString()).contains("LIMIT_WS_LINK_CONNECTIONS_PER_CHAT");
                assertThat(sixth.awaitClose()).isEqualTo(4429);
            }
            try (ChatSocket otherChat = page(createChat("owner")).connect();
                    ChatSocket withKey = tenant.socket("teacher", chatId)) {
                assertThat(otherChat.next().get("event_type").asString()).isEqualTo("connection_established");
                assertThat(withKey.next().get("event_type").asString()).isEqualTo("connection_established");
            }
            open.removeFirst().close();
            String afterOneClosed = "";
            for (long deadline = System.nanoTime() + 10_000_000_000L;
                    !afterOneClosed.equals("connection_established") && System.nanoTime() < deadline; ) {
                try (ChatSocket again = page(chatId).connect()) {
                    afterOneClosed = again.next().get("event_type").asString();
                }
            }
            assertThat(afterOneClosed).as("a place freed by a closed page").isEqualTo("connection_established");
        } finally {
            open.forEach(ChatSocket::close);
        }
    }

    @Test
    void thePageSocketResumesAndSendsExactlyOnceLikeTheTenantSocket() {
        String chatId = createChat("owner");
        long lastSeq;
        try (ChatSocket socket = page(chatId).connect()) {
            socket.next();
            socket.send("{\"content\": \"first\", \"client_message_id\": \"once\"}");
            lastSeq = socket.awaitReplyEnd().getLast().get("seq").asLong();
            socket.send("{\"content\": \"first\", \"client_message_id\": \"once\"}");
            JsonNode again = socket.awaitEvent("message_received");
            assertThat(again.get("content").asString()).isEqualTo("first");
        }
        try (ChatSocket tenantSide = tenant.socket("teacher", chatId)) {
            tenantSide.next();
            tenantSide.next();
            tenantSide.sendContent("second");
            tenantSide.awaitReplyEnd();
        }
        try (ChatSocket resumed =
                page(chatId).query("resume_from", Long.toString(lastSeq)).connect()) {
            assertThat(resumed.next().get("event_type").asString()).isEqualTo("connection_established");
            JsonNode received = resumed.next();
            assertThat(received.get("event_type").asString()).isEqualTo("message_received");
            assertThat(received.get("content").asString()).isEqualTo("second");
            assertThat(resumed.next().get("event_type").asString()).isEqualTo("message_stream_ended");
        }
        assertThat(api.get("/api/v1/chats/" + chatId)
                        .json()
                        .get("message_count")
                        .asInt())
                .isEqualTo(4);
    }

    private ChatSocket.Options page(String chatId) {
        return ChatSocket.to(service.port()).path("/ws/chat-ui").query("chat_id", chatId);
    }

    private void putSettings(String json) {
        Api.Reply reply = api.put("/api/v1/chat-ui/settings", json);
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
    }

    private String createChat(String userId) {
        Api.Reply created = api.post("/api/v1/chats", Api.JSON.writeValueAsString(Map.of("user_id", userId)));
        assertThat(created.status()).isEqualTo(201);
        return created.json().get("id").asString();
    }
}
