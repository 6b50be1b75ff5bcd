package com.chatreview.realtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.support.Api;
import com.chatreview.support.Api.Reply;
import com.chatreview.support.ChatSocket;
import com.chatreview.support.ServiceProcess;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Killing the service (SIGKILL) while replies stream loses nothing that was acknowledged and stores no reply
 * in half: every message a client got {@code message_received} for is there after the restart, and every stored
 * reply is the whole reply. Not an {@code *IntegrationTests} class: it runs the service in its own JVM, once.
 */
@Tag("process")
class ChatStreamDurabilityTests {

    static final Pattern PIECE = Pattern.compile("\\S+\\s*");
    static ServiceProcess service;

    @BeforeAll
    static void prepare() throws IOException {
        // slow enough that replies are surely mid-stream when the kill comes
        service = new ServiceProcess("stream-durability", Map.of("ASSISTANT_OFFLINETOKENDELAY", "40ms"));
    }

    @AfterAll
    static void stopEverything() throws IOException {
        service.close();
    }

    @Test
    void aKillMidStreamLosesNoAcknowledgedMessageAndStoresNoHalfReply() throws Exception {
        service.start();
        int port = service.port();
        Reply tenant = new Api(port)
                .with("X-Admin-Token", ServiceProcess.ADMIN_TOKEN)
                .post("/admin/v1/tenants", "{\"name\": \"stream-durability\"}");
        assertThat(tenant.status()).as(tenant.toString()).isEqualTo(201);
        String apiKey = tenant.json().get("api_key").asString();
        Api api = new Api(port).with("X-API-Key", apiKey);
        List<String> chats = new ArrayList<>();
        List<ChatSocket> sockets = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            Reply chat = api.post("/api/v1/chats", "{\"user_id\": \"student-" + i + "\"}");
            assertThat(chat.status()).as(chat.toString()).isEqualTo(201);
            chats.add(chat.json().get("id").asString());
            ChatSocket socket = ChatSocket.connect(port, apiKey, "student-" + i, chats.getLast());
            socket.awaitEvent("connection_established");
            socket.sendContent("How do I add fractions with different denominators?");
            socket.sendContent("And how do I subtract them?");
            sockets.add(socket);
        }
        for (ChatSocket socket : sockets) {
            socket.awaitEvent("message_stream_token", Duration.ofSeconds(30));
        }

        service.kill();

        Set<String> acknowledged = new HashSet<>();
        Set<String> announced = new HashSet<>();
        boolean midStream = false;
        for (ChatSocket socket : sockets) {
            Set<String> started = new HashSet<>();
            Set<String> ended = new HashSet<>();
            for (JsonNode event : socket.received()) {
                switch (event.get("event_type").asString()) {
                    case "message_received" ->
                        acknowledged.add(event.get("message_id").asString());
                    case "message_stream_started" ->
                        started.add(event.get("message_id").asString());
                    case "message_stream_ended" ->
                        ended.add(event.get("message_id").asString());
                    default -> {}
                }
            }
            announced.addAll(ended);
            midStream |= !ended.containsAll(started);
            socket.abort();
        }
        assertThat(midStream)
                .as("a reply was being streamed when the service was killed")
                .isTrue();

        service.start();
        Set<String> stored = new HashSet<>();
        for (String chat : chats) {
            Reply messages = api.get("/api/v1/chats/" + chat + "/messages?limit=100");
            assertThat(messages.status()).as(messages.toString()).isEqualTo(200);
            for (JsonNode message : messages.json().get("messages")) {
                stored.add(message.get("id").asString());
                if (message.get("sender_role").asString().equals("assistant")) {
                    assertWhole(message);
                }
            }
        }
        assertThat(acknowledged).isNotEmpty();
        assertThat(stored).containsAll(acknowledged).containsAll(announced);
    }

    /** A stored reply is the provider's whole reply: finished, with as many pieces as the provider streamed. */
    private static void assertWhole(JsonNode message) {
        JsonNode metadata = message.get("metadata");
        assertThat(metadata.get("finish_reason").asString()).isEqualTo("stop");
        long pieces = PIECE.matcher(message.get("content").asString()).results().count();
        assertThat(pieces)
                .isEqualTo(metadata.get("usage").get("completion_tokens").asLong());
    }
}
