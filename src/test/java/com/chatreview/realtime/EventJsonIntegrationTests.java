package com.chatreview.realtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.support.Api;
import com.chatreview.support.ChatSocket;
import com.chatreview.support.IntegrationTest;
import com.chatreview.support.SingleNodeToo;
import com.chatreview.support.TestService;
import com.chatreview.support.TestTenant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The exact text of every kind of WebSocket event, field order included, as clients have always received it: the
 * events are a wire format, and a change of how they are built must not change a byte of them. Timestamps and ids
 * are replaced by placeholders (the same id by the same placeholder), nothing else.
 */
@SingleNodeToo
@IntegrationTest
class EventJsonIntegrationTests {

    private static final Pattern TIMESTAMP = Pattern.compile("\"\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z\"");
    private static final Pattern UUID = Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

    TestService service;

    TestTenant tenant;
    Api api;

    @BeforeEach
    void newTenant(TestService service) {
        this.service = service;
        tenant = service.newTenant("event-json");
        api = tenant.chats();
    }

    @Test
    void aConversationsEventsAreTheTextsClientsKnow() {
        String chatId = createChat();
        Placeholders ids = new Placeholders(chatId, tenant.id());

        try (ChatSocket socket = tenant.socket("pinned-user", chatId)) {
            socket.next();
            socket.next();
            socket.send("{\"content\": \"Hi \\\"there\\\" \\u00e9\", \"client_message_id\": \"c-1\","
                    + " \"metadata\": {\"k\": \"v\"}}");
            List<JsonNode> reply = socket.awaitReplyEnd();
            socket.send("{\"content\": \"Hi again\", \"client_message_id\": \"c-1\"}");
            socket.next();
            socket.send("not json");
            socket.next();

            List<String> texts = socket.receivedTexts();
            String ended = texts.get(texts.size() - 3);
            String content = reply.getLast().get("content").asString();
            StringBuilder tokens = new StringBuilder();
            reply.subList(2, reply.size() - 1)
                    .forEach(token -> tokens.append(token.get("token").asString()));
            assertThat(tokens.toString()).isEqualTo(content);

            assertThat(ids.apply(texts.get(0)))
                    .isEqualTo("{\"event_type\":\"connection_established\",\"timestamp\":<time>,"
                            + "\"user_id\":\"pinned-user\",\"chat_id\":\"<chat>\",\"tenant_id\":\"<tenant>\","
                            + "\"last_seq\":0}");
            assertThat(ids.apply(texts.get(1)))
                    .isEqualTo("{\"event_type\":\"user_created\",\"timestamp\":<time>,\"user_id\":\"pinned-user\"}");
            assertThat(ids.apply(texts.get(2)))
                    .isEqualTo("{\"event_type\":\"message_received\",\"timestamp\":<time>,\"message_id\":\"<id1>\","
                            + "\"chat_id\":\"<chat>\",\"user_id\":\"pinned-user\",\"content\":\"Hi \\\"there\\\" é\","
                            + "\"client_message_id\":\"c-1\",\"seq\":1}");
            assertThat(ids.apply(texts.get(3)))
                    .isEqualTo("{\"event_type\":\"message_stream_started\",\"timestamp\":<time>,"
                            + "\"chat_id\":\"<chat>\",\"user_id\":\"pinned-user\",\"message_id\":\"<id2>\",\"seq\":2}");
            assertThat(ids.apply(texts.get(4)))
                    .isEqualTo("{\"event_type\":\"message_stream_token\",\"timestamp\":<time>,\"chat_id\":\"<chat>\","
                            + "\"message_id\":\"<id2>\",\"token\":"
                            + Api.JSON.writeValueAsString(
                                    reply.get(2).get("token").asString()) + ",\"seq\":3}");
            long endSeq = reply.getLast().get("seq").asLong();
            assertThat(ids.apply(ended))
                    .isEqualTo("{\"event_type\":\"message_stream_ended\",\"timestamp\":<time>,\"message_id\":\"<id2>\","
                            + "\"chat_id\":\"<chat>\",\"user_id\":\"pinned-user\",\"content\":"
                            + Api.JSON.writeValueAsString(content) + ",\"seq\":" + endSeq + "}");
            assertThat(ids.apply(texts.get(texts.size() - 2)))
                    .as("a repeated client_message_id: the original, to the sender alone")
                    .isEqualTo("{\"event_type\":\"message_received\",\"timestamp\":<time>,\"message_id\":\"<id1>\","
                            + "\"chat_id\":\"<chat>\",\"user_id\":\"pinned-user\",\"content\":\"Hi \\\"there\\\" é\","
                            + "\"client_message_id\":\"c-1\",\"seq\":1}");
            assertThat(ids.apply(texts.getLast()))
                    .isEqualTo("{\"event_type\":\"error\",\"timestamp\":<time>,\"error_code\":\"INVALID_MESSAGE\","
                            + "\"error_message\":\"The frame is not valid JSON\",\"details\":{\"fix\":"
                            + "\"Send a text frame holding a JSON object {\\\"content\\\": \\\"...\\\"} with an optional metadata object and client_message_id (at most 128 characters), at most 64 KiB.\""
                            + "}}");

            try (ChatSocket resumed = ChatSocket.to(service.port())
                    .query("api_key", tenant.apiKey())
                    .query("user_id", "pinned-user")
                    .query("chat_id", chatId)
                    .query("resume_from", "0")
                    .connect()) {
                resumed.next();
                resumed.next();
                resumed.next();
                List<String> replayed = resumed.receivedTexts();
                assertThat(ids.apply(replayed.get(0)))
                        .isEqualTo("{\"event_type\":\"connection_established\",\"timestamp\":<time>,"
                                + "\"user_id\":\"pinned-user\",\"chat_id\":\"<chat>\",\"tenant_id\":\"<tenant>\","
                                + "\"last_seq\":" + endSeq + "}");
                assertThat(ids.apply(replayed.get(1))).isEqualTo(ids.apply(texts.get(2)));
                assertThat(ids.apply(replayed.get(2))).isEqualTo(ids.apply(ended));
            }
        }
    }

    @Test
    void refusalsAndLimitsAreTheTextsClientsKnow() {
        String chatId = createChat();
        Placeholders ids = new Placeholders(chatId, tenant.id());

        try (ChatSocket refused = ChatSocket.connect(service.port(), "crs_not-a-key", "pinned-user", chatId)) {
            refused.next();
            assertThat(ids.apply(refused.receivedTexts().getFirst()))
                    .isEqualTo("{\"event_type\":\"error\",\"timestamp\":<time>,\"error_code\":\"AUTH_ERROR\","
                            + "\"error_message\":\"The API key is not valid\",\"details\":{\"fix\":"
                            + "\"Check the API key, and give api_key, user_id and chat_id as query parameters or as the headers X-API-Key, X-User-ID and X-Chat-ID.\""
                            + "}}");
        }

        assertThat(api.patch("/api/v1/chats/" + chatId, "{\"status\": \"closed\"}")
                        .status())
                .isEqualTo(200);
        try (ChatSocket socket = tenant.socket("pinned-user", chatId)) {
            socket.next();
            socket.next();
            socket.sendContent("closed?");
            socket.next();
            assertThat(ids.apply(socket.receivedTexts().getLast()))
                    .isEqualTo("{\"event_type\":\"error\",\"timestamp\":<time>,\"error_code\":\"CHAT_CLOSED\","
                            + "\"error_message\":\"The chat is closed; the message was not stored\","
                            + "\"details\":{\"fix\":"
                            + "\"The chat is closed: reopen it with PATCH /api/v1/chats/{chat_id} {\\\"status\\\":\\\"active\\\"} or create a new chat.\""
                            + "}}");

            String limited = null;
            for (int sent = 0; sent < 40 && limited == null; sent++) {
                socket.send("{}");
                socket.next();
                String text = socket.receivedTexts().getLast();
                if (text.contains("RATE_LIMITED")) {
                    limited = text;
                }
            }
            assertThat(limited).isNotNull();
            assertThat(ids.apply(limited).replaceFirst("\"retry_after_ms\":\\d+", "\"retry_after_ms\":<ms>"))
                    .isEqualTo("{\"event_type\":\"error\",\"timestamp\":<time>,\"error_code\":\"RATE_LIMITED\","
                            + "\"error_message\":\"More than 10 frames in a second; this frame was dropped\","
                            + "\"details\":{\"fix\":"
                            + "\"Send at most the allowed frames per second; wait retry_after_ms before the next one.\""
                            + ",\"retry_after_ms\":<ms>}}");
        }
    }

    private String createChat() {
        Api.Reply reply = api.post("/api/v1/chats", "{\"user_id\": \"owner\"}");
        assertThat(reply.status()).isEqualTo(201);
        return reply.json().get("id").asString();
    }

    /** Timestamps become {@code <time>}; the chat and tenant ids their names; other ids {@code <idN>}, in order. */
    private static final class Placeholders {
        private final Map<String, String> names = new LinkedHashMap<>();

        Placeholders(String chatId, String tenantId) {
            names.put(chatId, "<chat>");
            names.put(tenantId, "<tenant>");
        }

        String apply(String text) {
            String timeless = TIMESTAMP.matcher(text).replaceAll("<time>");
            Matcher ids = UUID.matcher(timeless);
            StringBuilder out = new StringBuilder();
            while (ids.find()) {
                String name = names.computeIfAbsent(ids.group(), id -> "<id" + (names.size() - 1) + ">");
                ids.appendReplacement(out, Matcher.quoteReplacement(name));
            }
            ids.appendTail(out);
            return out.toString();
        }
    }
}
