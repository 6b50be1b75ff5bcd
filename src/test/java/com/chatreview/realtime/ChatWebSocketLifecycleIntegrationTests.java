package com.chatreview.realtime;

import static com.chatreview.realtime.ChatWebSocketIntegrationTests.assertStrictlyIncreasingSeq;
import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.realtime.ChatWebSocketIntegrationTests.Reply;
import com.chatreview.support.Api;
import com.chatreview.support.ChatSocket;
import com.chatreview.support.IntegrationTest;
import com.chatreview.support.SharedTestConfiguration;
import com.chatreview.support.SingleNodeToo;
import com.chatreview.support.TestService;
import com.chatreview.support.TestTenant;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * {@code /ws/chat} over real sockets, around the edges of a connection's life: limits, deletion while connected,
 * clients that go away, resuming, and keys revoked while in use.
 */
@SingleNodeToo
@IntegrationTest
class ChatWebSocketLifecycleIntegrationTests {

    static final Duration PATIENCE = Duration.ofSeconds(20);
    /**
     * How long nothing more must arrive after the missed events, which are sent at once: an extra event would
     * follow them within it. Under load it may come later, so such a check can pass wrongly but never fail wrongly.
     */
    static final Duration QUIET = Duration.ofSeconds(1);

    TestService service;

    TestTenant tenant;
    Api api;

    @BeforeEach
    void newTenant(TestService service) {
        this.service = service;
        tenant = service.newTenant("ws-lifecycle-tests");
        api = tenant.chats();
    }

    @Test
    void framesBeyondTheRateAreDroppedWithRetryAfterAndTheConnectionStaysOpen() throws InterruptedException {
        String chatId = createChat("owner");
        int heard = 0;

        try (ChatSocket socket = connected("owner", chatId)) {
            JsonNode limited = null;
            for (int sent = 0; sent < 100 && limited == null; sent++) {
                socket.send("{}");
                JsonNode error = socket.next();
                assertThat(error.get("event_type").asString()).isEqualTo("error");
                if (error.get("error_code").asString().equals("RATE_LIMITED")) {
                    assertThat(sent).as("frames allowed before the limit").isGreaterThanOrEqualTo(10);
                    long retryAfter = error.get("details").get("retry_after_ms").asLong();
                    assertThat(retryAfter).isBetween(1L, 1000L);
                    assertThat(error.get("details").get("fix").asString()).isNotBlank();
                    if (retryAfter > 300) {
                        limited = error;
                    }
                } else {
                    assertThat(error.get("error_code").asString()).isEqualTo("INVALID_MESSAGE");
                }
            }
            assertThat(limited)
                    .as("a RATE_LIMITED error with time left in its second")
                    .isNotNull();

            // still within that second: a valid frame is dropped too. Under load it may reach the service only
            // in the next second, and be heard: then again in a later second (a limiter that let valid frames
            // through would hear it every time)
            while (true) {
                socket.sendContent("dropped");
                List<JsonNode> answer = socket.awaitReplyEnd();
                if (answer.getFirst().get("event_type").asString().equals("error")) {
                    limited = answer.getFirst();
                    assertThat(limited.get("error_code").asString()).isEqualTo("RATE_LIMITED");
                    break;
                }
                heard++;
                assertThat(heard)
                        .as("valid frames heard right after a RATE_LIMITED")
                        .isLessThan(5);
                limited = limitedWithTimeLeft(socket);
            }
            assertThat(socket.isOpen()).isTrue();
            assertThat(messages(chatId)).hasSize(2 * heard);

            Thread.sleep(limited.get("details").get("retry_after_ms").asLong() + 100);
            socket.sendContent("heard");
            assertThat(Reply.of(socket.awaitReplyEnd())
                            .received()
                            .get("content")
                            .asString())
                    .isEqualTo("heard");
        }
        assertThat(messages(chatId)).hasSize(2 * heard + 2);
    }

    /** Invalid frames until one is dropped with more than 300 ms left of its second. */
    private static JsonNode limitedWithTimeLeft(ChatSocket socket) {
        for (int sent = 0; sent < 100; sent++) {
            socket.send("{}");
            JsonNode error = socket.next();
            if (error.get("error_code").asString().equals("RATE_LIMITED")
                    && error.get("details").get("retry_after_ms").asLong() > 300) {
                return error;
            }
        }
        throw new AssertionError("No RATE_LIMITED error with time left in its second");
    }

    @Test
    void theFiftyFirstConnectionOfATenantIsRefusedWith4429() {
        String chatId = createChat("owner");
        List<ChatSocket> open = new ArrayList<>();
        try {
            for (int i = 0; i < 50; i++) {
                open.add(connected("owner", chatId));
            }
            try (ChatSocket refused = tenant.socket("owner", chatId)) {
                JsonNode error = refused.next();
                assertThat(error.get("event_type").asString()).isEqualTo("error");
                assertThat(error.get("error_code").asString()).isEqualTo("CONNECTION_LIMIT_EXCEEDED");
                assertThat(error.get("details").get("fix").asString()).isNotBlank();
                assertThat(refused.awaitClose()).isEqualTo(4429);
            }
            TestTenant other = service.newTenant("ws-lifecycle-other");
            String otherChat = other.chats()
                    .post("/api/v1/chats", "{\"user_id\": \"owner\"}")
                    .json()
                    .get("id")
                    .asString();
            try (ChatSocket elsewhere = other.socket("owner", otherChat)) {
                assertThat(elsewhere.next().get("event_type").asString()).isEqualTo("connection_established");
            }

            open.removeFirst().close();
            eventually(() -> {
                try (ChatSocket again = tenant.socket("owner", chatId)) {
                    return again.next().get("event_type").asString().equals("connection_established");
                }
            });
        } finally {
            open.forEach(ChatSocket::close);
        }
    }

    @Test
    void aChatIsNotDeletedWhileAConnectionIsOpen() {
        String chatId = createChat("owner");

        ChatSocket socket = connected("owner", chatId);
        Api.Reply blocked = api.delete("/api/v1/chats/" + chatId);
        assertThat(blocked.status()).isEqualTo(409);
        assertThat(blocked.json().get("code").asString()).isEqualTo("CONFLICT");
        assertThat(api.get("/api/v1/chats/" + chatId).status()).isEqualTo(200);

        socket.close();
        eventually(() -> api.delete("/api/v1/chats/" + chatId).status() == 200);
        assertThat(api.get("/api/v1/chats/" + chatId).status()).isEqualTo(404);
    }

    @Test
    void aReplyIsStoredWhenItsClientGoesAwayMidStreamAndHoldsOffDeletionUntilThen() {
        String chatId = createChat("owner");

        ChatSocket socket = connected("owner", chatId);
        socket.sendContent("Tell me about the water cycle");
        socket.awaitEvent("message_stream_token");
        socket.abort();
        assertThat(api.delete("/api/v1/chats/" + chatId).status()).isEqualTo(409);

        eventually(() -> messages(chatId).size() == 2);
        JsonNode reply = messages(chatId).get(1);
        assertThat(reply.get("sender_role").asString()).isEqualTo("assistant");
        assertThat(reply.get("content").asString()).isNotBlank();
        assertThat(reply.get("metadata").get("finish_reason").asString()).isEqualTo("stop");
        eventually(() -> api.delete("/api/v1/chats/" + chatId).status() == 200);
    }

    @Test
    void aClientThatDropsMidReplyAndResumesEndsWithExactlyTheStoredReply() {
        String chatId = createChat("owner");

        ChatSocket first = connected("owner", chatId);
        first.sendContent("What is the capital of France, and why? " + SharedTestConfiguration.SLOW_MARKER);
        List<JsonNode> seen = new ArrayList<>();
        int tokens = 0;
        while (tokens < 3) {
            JsonNode event = first.next();
            seen.add(event);
            if (event.get("event_type").asString().equals("message_stream_token")) {
                tokens++;
            }
        }
        first.abort();
        long lastSeen = seen.getLast().get("seq").asLong();
        String before = text(seen);

        try (ChatSocket fromStart = resume(chatId, 0);
                ChatSocket resumed = ChatSocket.to(service.port())
                        .query("api_key", tenant.apiKey())
                        .query("user_id", "owner")
                        .query("chat_id", chatId)
                        .query("resume_from", Long.toString(lastSeen))
                        .connect()) {
            JsonNode established = resumed.next();
            assertThat(established.get("event_type").asString()).isEqualTo("connection_established");
            assertThat(established.get("last_seq").asLong()).isGreaterThanOrEqualTo(lastSeen);
            List<JsonNode> after = resumed.awaitReplyEnd();

            assertThat(after)
                    .extracting(event -> event.get("event_type").asString())
                    .allMatch(type -> type.equals("message_stream_token") || type.equals("message_stream_ended"));
            // mid-reply: the tokens lost with the first connection come first, none left out, none twice
            assertThat(after.getFirst().get("seq").asLong()).isEqualTo(lastSeen + 1);
            assertThat(after).hasSizeGreaterThan(1);
            assertStrictlyIncreasingSeq(after);
            JsonNode ended = after.getLast();
            assertThat(ended.get("event_type").asString()).isEqualTo("message_stream_ended");

            JsonNode stored = messages(chatId).get(1);
            assertThat(ended.get("message_id").asString())
                    .isEqualTo(stored.get("id").asString());
            assertThat(ended.get("content").asString())
                    .isEqualTo(stored.get("content").asString());
            assertThat(before + text(after)).isEqualTo(stored.get("content").asString());

            // from the start: the stored question, then the reply in progress from its beginning
            Reply whole = Reply.of(fromStart.awaitReplyEnd());
            assertThat(whole.received().get("seq").asLong())
                    .isEqualTo(seen.getFirst().get("seq").asLong());
            assertThat(whole.started().get("seq").asLong())
                    .isEqualTo(seen.get(1).get("seq").asLong());
            assertThat(whole.tokenText()).isEqualTo(stored.get("content").asString());
        }
    }

    @Test
    void resumingAfterTheRepliesGetsTheFinalEventOfEveryMessageMissed() {
        String chatId = createChat("owner");
        List<JsonNode> live = new ArrayList<>();
        try (ChatSocket socket = connected("owner", chatId)) {
            socket.sendContent("first question");
            live.addAll(socket.awaitReplyEnd());
            socket.sendContent("second question");
            live.addAll(socket.awaitReplyEnd());
        }
        long middle = Reply.of(firstReply(live)).ended().get("seq").asLong();

        try (ChatSocket resumed = resume(chatId, 0)) {
            List<JsonNode> missed = List.of(resumed.next(), resumed.next(), resumed.next(), resumed.next());
            assertThat(missed)
                    .extracting(event -> event.get("event_type").asString())
                    .containsExactly(
                            "message_received", "message_stream_ended", "message_received", "message_stream_ended");
            assertThat(missed)
                    .extracting(event -> event.get("seq").asLong())
                    .containsExactly(live.stream()
                            .filter(event -> List.of("message_received", "message_stream_ended")
                                    .contains(event.get("event_type").asString()))
                            .map(event -> event.get("seq").asLong())
                            .toArray(Long[]::new));
            assertThat(missed.get(3).get("content").asString())
                    .isEqualTo(live.getLast().get("content").asString());
            assertThat(resumed.poll(QUIET)).isNull();
        }
        try (ChatSocket resumed = resume(chatId, middle)) {
            assertThat(resumed.next().get("content").asString()).isEqualTo("second question");
            assertThat(resumed.next().get("event_type").asString()).isEqualTo("message_stream_ended");
            assertThat(resumed.poll(QUIET)).isNull();
        }
    }

    @Test
    void revokingAKeyClosesItsConnectionsWith4401() {
        String chatId = createChat("owner");
        Api admin = service.api().with("X-Admin-Token", SharedTestConfiguration.ADMIN_TOKEN);
        Api.Reply issued = admin.post("/admin/v1/tenants/" + tenant.id() + "/api-keys", "");
        assertThat(issued.status()).isEqualTo(201);
        String secondKey = issued.json().get("api_key").asString();
        String secondKeyId = issued.json().get("id").asString();

        try (ChatSocket kept = connected("owner", chatId);
                ChatSocket revoked = ChatSocket.connect(service.port(), secondKey, "owner", chatId)) {
            assertThat(revoked.next().get("event_type").asString()).isEqualTo("connection_established");

            assertThat(admin.delete("/admin/v1/tenants/" + tenant.id() + "/api-keys/" + secondKeyId)
                            .status())
                    .isEqualTo(204);

            JsonNode error = revoked.next();
            assertThat(error.get("event_type").asString()).isEqualTo("error");
            assertThat(error.get("error_code").asString()).isEqualTo("AUTH_ERROR");
            assertThat(error.get("details").get("fix").asString()).isNotBlank();
            assertThat(revoked.awaitClose()).isEqualTo(4401);

            assertThat(kept.isOpen()).isTrue();
            kept.sendContent("still here");
            assertThat(Reply.of(kept.awaitReplyEnd()).received().get("content").asString())
                    .isEqualTo("still here");
        }
        try (ChatSocket again = ChatSocket.connect(service.port(), secondKey, "owner", chatId)) {
            assertThat(again.next().get("error_code").asString()).isEqualTo("AUTH_ERROR");
            assertThat(again.awaitClose()).isEqualTo(4401);
        }
    }

    private static List<JsonNode> firstReply(List<JsonNode> events) {
        List<JsonNode> first = new ArrayList<>();
        for (JsonNode event : events) {
            first.add(event);
            if (event.get("event_type").asString().equals("message_stream_ended")) {
                return first;
            }
        }
        return first;
    }

    private static String text(List<JsonNode> events) {
        StringBuilder text = new StringBuilder();
        for (JsonNode event : events) {
            if (event.get("event_type").asString().equals("message_stream_token")) {
                text.append(event.get("token").asString());
            }
        }
        return text.toString();
    }

    private ChatSocket resume(String chatId, long from) {
        ChatSocket socket = ChatSocket.to(service.port())
                .query("api_key", tenant.apiKey())
                .query("user_id", "owner")
                .query("chat_id", chatId)
                .query("resume_from", Long.toString(from))
                .connect();
        assertThat(socket.next().get("event_type").asString()).isEqualTo("connection_established");
        return socket;
    }

    private static void eventually(BooleanSupplier condition) {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("Not true within " + PATIENCE);
            }
            try {
                Thread.sleep(250);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    String createChat(String userId) {
        Api.Reply reply = api.post("/api/v1/chats", Api.JSON.writeValueAsString(Map.of("user_id", userId)));
        assertThat(reply.status()).isEqualTo(201);
        return reply.json().get("id").asString();
    }

    List<JsonNode> messages(String chatId) {
        Api.Reply reply = api.get("/api/v1/chats/" + chatId + "/messages?limit=100");
        assertThat(reply.status()).isEqualTo(200);
        List<JsonNode> messages = new ArrayList<>();
        reply.json().get("messages").forEach(messages::add);
        return messages;
    }

    ChatSocket connected(String userId, String chatId) {
        ChatSocket socket = tenant.socket(userId, chatId);
        JsonNode first = socket.next();
        assertThat(first.get("event_type").asString()).as("%s", first).isEqualTo("connection_established");
        return socket;
    }
}
