package com.chatreview.chat;

import java.util.Optional;

/**
 * Something that may hold a chat open and so forbid deleting it (a WebSocket connection, a reply being
 * generated). Implemented by the modules that hold chats open; the chat module asks every one before a delete.
 */
public interface ChatDeletionGuard {

    /** Why the chat cannot be deleted now, or empty when this guard has no objection. */
    Optional<String> blockingReason(ChatId chatId);
}
