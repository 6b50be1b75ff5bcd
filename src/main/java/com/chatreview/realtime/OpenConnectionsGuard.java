package com.chatreview.realtime;

import com.chatreview.chat.ChatDeletionGuard;
import java.util.Optional;
import java.util.UUID;
import org.springframework.stereotype.Component;

/** A chat with an open connection or a reply in progress is not deleted (docs/api.md, Chats). */
@Component
class OpenConnectionsGuard implements ChatDeletionGuard {

    private final ConnectionRegistry connections;
    private final ReplyQueue queue;

    OpenConnectionsGuard(ConnectionRegistry connections, ReplyQueue queue) {
        this.connections = connections;
        this.queue = queue;
    }

    @Override
    public Optional<String> blockingReason(UUID chatId) {
        if (connections.anyOpen(chatId)) {
            return Optional.of("a WebSocket connection is open on it");
        }
        if (queue.busy(chatId)) {
            return Optional.of("a reply is being generated");
        }
        return Optional.empty();
    }
}
