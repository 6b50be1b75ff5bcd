package com.chatreview.realtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.support.Api;
import com.chatreview.support.Api.Reply;
import com.chatreview.support.ChatSocket;
import com.chatreview.support.ServiceProcess;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * What a connection lives through over time, on a service of its own with short intervals: pings, the close of
 * an idle connection (1000), and a graceful shutdown that stores the reply in progress before closing with 1001.
 * Not an {@code *IntegrationTests} class: it stops the service, so it runs it in its own JVM, once.
 */
@Tag("process")
class ChatConnectionLifecycleTests {

    static ServiceProcess service;
    static String apiKey;

    @BeforeAll
    static void start() throws Exception {
        service = new ServiceProcess(
                "connection-lifecycle",
                Map.of(
                        "REALTIME_PINGINTERVAL", "300ms",
                        "REALTIME_IDLETIMEOUT", "3s",
                        "ASSISTANT_OFFLINETOKENDELAY", "30ms"));
        service.start();
        Reply tenant = new Api(service.port())
                .with("X-Admin-Token", ServiceProcess.ADMIN_TOKEN)
                .post("/admin/v1/tenants", "{\"name\": \"lifecycle\"}");
        assertThat(tenant.status()).as(tenant.toString()).isEqualTo(201);
        apiKey = tenant.json().get("api_key").asString();
    }

    @AfterAll
    static void stop() throws IOException {
        service.close();
    }

    @Test
    void pingsOpenConnectionsAndClosesIdleOnes() throws Exception {
        ChatSocket socket = ChatSocket.connect(service.port(), apiKey, "idle-student", newChat());
        socket.awaitEvent("connection_established");

        int code = socket.awaitClose(Duration.ofSeconds(20));

        assertThat(socket.pings()).as("pings before the idle close").isGreaterThanOrEqualTo(3);
        assertThat(code).isEqualTo(1000);
    }

    @Test
    void aShutdownStoresTheReplyInProgressThenClosesWith1001() throws Exception {
        String chat = newChat();
        ChatSocket socket = ChatSocket.connect(service.port(), apiKey, "student", chat);
        socket.awaitEvent("connection_established");
        socket.sendContent("Explain how photosynthesis turns light into sugar in plants, step by step.");
        socket.awaitEvent("message_stream_token");

        service.terminate();

        assertThat(socket.awaitClose(Duration.ofSeconds(10))).isEqualTo(1001);
        List<String> types = socket.received().stream()
                .map(event -> event.get("event_type").asString())
                .toList();
        assertThat(types).contains("message_stream_ended");
        JsonNode ended = socket.received().stream()
                .filter(event -> event.get("event_type").asString().equals("message_stream_ended"))
                .findFirst()
                .orElseThrow();

        service.start();
        Reply messages = new Api(service.port()).with("X-API-Key", apiKey).get("/api/v1/chats/" + chat + "/messages");
        assertThat(messages.json().get("total").asInt()).isEqualTo(2);
        JsonNode reply = messages.json().get("messages").get(1);
        assertThat(reply.get("id").asString()).isEqualTo(ended.get("message_id").asString());
        assertThat(reply.get("content").asString())
                .isEqualTo(ended.get("content").asString());
    }

    private static String newChat() {
        Reply chat =
                new Api(service.port()).with("X-API-Key", apiKey).post("/api/v1/chats", "{\"user_id\": \"student\"}");
        assertThat(chat.status()).as(chat.toString()).isEqualTo(201);
        return chat.json().get("id").asString();
    }
}
