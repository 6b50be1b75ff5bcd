package com.chatreview.realtime;

import com.chatreview.chat.ChatDeletionGuard;
import com.chatreview.chat.ChatId;
import java.util.Optional;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;

/** A chat with an open connection, on any node, is not deleted (docs/api.md, Chats). */
@Component
@Order(1)
class OpenConnectionsGuard implements ChatDeletionGuard {

    private final ConnectionRegistry connections;

    OpenConnectionsGuard(ConnectionRegistry connections) {
        this.connections = connections;
    }

    @Override
    public Optional<String> blockingReason(ChatId chatId) {
        if (connections.anyOpen(chatId)) {
            return Optional.of("a WebSocket connection is open on it");
        }
        return Optional.empty();
    }
}
