package com.chatreview.realtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.support.Api;
import com.chatreview.support.ChatSocket;
import com.chatreview.support.IntegrationTest;
import com.chatreview.support.SharedTestConfiguration;
import com.chatreview.support.SingleNodeToo;
import com.chatreview.support.TestTenant;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * A chat's queue of frames waiting for their reply is bounded (docs/api.md, The WebSocket, REALTIME_MAX_QUEUED_FRAMES, 5 by
 * default), and a frame whose connection left before its turn is dropped: nothing a client was not told was stored
 * is stored, answered or paid for after it left, and nothing it was told was stored is dropped.
 */
@SingleNodeToo
@IntegrationTest
class ReplyQueueBoundsIntegrationTests {

    @Test
    void aFrameBeyondTheWaitingOnesIsRefusedAndNotStored(TestTenant tenant) {
        String chatId = chat(tenant, "owner");
        try (ChatSocket socket = connected(tenant, "owner", chatId)) {
            socket.sendContent("first " + SharedTestConfiguration.SLOW_MARKER);
            socket.awaitEvent("message_received");
            for (int i = 1; i <= 5; i++) {
                socket.sendContent("waiting " + i);
            }
            socket.sendContent("one too many");

            JsonNode refused = socket.awaitEvent("error");
            assertThat(refused.get("error_code").asString()).isEqualTo("RATE_LIMITED");
            assertThat(refused.get("details").get("retry_after_ms").asLong()).isPositive();
            for (int replies = 0; replies < 6; replies++) {
                socket.awaitEvent("message_stream_ended", Duration.ofSeconds(60));
            }
        }
        List<String> users = texts(tenant, chatId, "user");
        assertThat(users)
                .containsExactly(
                        "first " + SharedTestConfiguration.SLOW_MARKER,
                        "waiting 1",
                        "waiting 2",
                        "waiting 3",
                        "waiting 4",
                        "waiting 5");
        assertThat(texts(tenant, chatId, "assistant")).hasSize(6);
    }

    @Test
    void framesStillWaitingWhenTheirConnectionClosesAreDroppedAndWhatWasAcknowledgedIsAnswered(TestTenant tenant)
            throws Exception {
        String chatId = chat(tenant, "owner");
        try (ChatSocket watcher = connected(tenant, "teacher", chatId)) {
            ChatSocket leaving = connected(tenant, "owner", chatId);
            leaving.sendContent("answered " + SharedTestConfiguration.SLOW_MARKER);
            leaving.awaitEvent("message_received");
            leaving.sendContent("never stored 1");
            leaving.sendContent("never stored 2");
            leaving.sendContent("never stored 3");
            Thread.sleep(200); // the frames reach the server and wait behind the slow reply
            leaving.abort();

            watcher.awaitEvent("message_stream_ended", Duration.ofSeconds(60));
            Thread.sleep(1500); // time for any frame that was not dropped to be stored and answered
        }
        assertThat(texts(tenant, chatId, "user")).containsExactly("answered " + SharedTestConfiguration.SLOW_MARKER);
        assertThat(texts(tenant, chatId, "assistant")).hasSize(1);
    }

    private static String chat(TestTenant tenant, String userId) {
        Api.Reply reply = tenant.chats().post("/api/v1/chats", Api.JSON.writeValueAsString(Map.of("user_id", userId)));
        assertThat(reply.status()).isEqualTo(201);
        return reply.json().get("id").asString();
    }

    private static ChatSocket connected(TestTenant tenant, String userId, String chatId) {
        ChatSocket socket = tenant.socket(userId, chatId);
        assertThat(socket.next().get("event_type").asString()).isEqualTo("connection_established");
        return socket;
    }

    private static List<String> texts(TestTenant tenant, String chatId, String role) {
        Api.Reply reply = tenant.chats().get("/api/v1/chats/" + chatId + "/messages?limit=100");
        assertThat(reply.status()).isEqualTo(200);
        List<String> texts = new ArrayList<>();
        reply.json().get("messages").forEach(message -> {
            if (message.get("sender_role").asString().equals(role)) {
                texts.add(message.get("content").asString());
            }
        });
        return texts;
    }
}
