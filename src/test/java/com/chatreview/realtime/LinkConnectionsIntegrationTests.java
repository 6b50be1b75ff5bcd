package com.chatreview.realtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.support.Api;
import com.chatreview.support.ChatSocket;
import com.chatreview.support.IntegrationTest;
import com.chatreview.support.SingleNodeToo;
import com.chatreview.support.TestService;
import com.chatreview.support.TestTenant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The chat page's connections (opened by a chat's link, without a key) and the tenant's backend's (with its key)
 * are counted apart (docs/chat-ui.md): holders of links cannot use up the connections the tenant's backend needs, nor
 * the backend those of the pages.
 */
@SingleNodeToo
@IntegrationTest
class LinkConnectionsIntegrationTests {

    @Test
    void tenLinksHeldOpenOnTenChatsLeaveTheBackendItsConnections(TestService service, TestTenant tenant) {
        List<ChatSocket> open = new ArrayList<>();
        try {
            for (int chat = 0; chat < 10; chat++) {
                String chatId = chat(tenant);
                for (int page = 0; page < 5; page++) {
                    open.add(established(ChatSocket.to(service.port())
                            .path("/ws/chat-ui")
                            .query("chat_id", chatId)
                            .connect()));
                }
            }
            assertThat(open).hasSize(50);

            String backendChat = chat(tenant);
            for (int i = 0; i < 50; i++) {
                open.add(established(tenant.socket("backend", backendChat)));
            }
            try (ChatSocket refused = tenant.socket("backend", backendChat)) {
                JsonNode error = refused.next();
                assertThat(error.get("error_code").asString()).isEqualTo("CONNECTION_LIMIT_EXCEEDED");
                assertThat(error.get("details").get("limit").asInt()).isEqualTo(50);
                assertThat(refused.awaitClose()).isEqualTo(4429);
            }
            try (ChatSocket page = ChatSocket.to(service.port())
                    .path("/ws/chat-ui")
                    .query("chat_id", chat(tenant))
                    .connect()) {
                assertThat(page.next().get("event_type").asString())
                        .as("a page opens while the backend's connections are all taken")
                        .isEqualTo("connection_established");
            }
        } finally {
            open.forEach(ChatSocket::close);
        }
    }

    private static ChatSocket established(ChatSocket socket) {
        assertThat(socket.next().get("event_type").asString()).isEqualTo("connection_established");
        return socket;
    }

    private static String chat(TestTenant tenant) {
        Api.Reply reply =
                tenant.chats().post("/api/v1/chats", Api.JSON.writeValueAsString(Map.of("user_id", "student")));
        assertThat(reply.status()).isEqualTo(201);
        return reply.json().get("id").asString();
    }
}
