package com.chatreview.chat;

import com.chatreview.kernel.ServiceError;

/** The failures of the chat module, each a fact. */
public final class ChatErrors {

    private ChatErrors() {}

    /** No such chat for this tenant (it may exist for another: that is not told). */
    public static final class ChatNotFound extends ServiceError {
        public ChatNotFound(Object chatId) {
            super(
                    Code.NOT_FOUND,
                    "No chat with id '" + chatId + "'",
                    "Create the chat first with POST /api/v1/chats, and use the id it returns.");
        }
    }

    public static final class UserHasNoChats extends ServiceError {
        UserHasNoChats(String userId) {
            super(
                    Code.NOT_FOUND,
                    "The user '" + userId + "' has no chats",
                    "Create a chat for the user with POST /api/v1/chats.");
        }
    }

    public static final class ChatDeletionBlocked extends ServiceError {
        ChatDeletionBlocked(Object chatId, String reason) {
            super(
                    Code.CONFLICT,
                    "Chat '" + chatId + "' cannot be deleted now: " + reason,
                    "Close the chat's WebSocket connections and wait for the reply in progress to end, then"
                            + " delete again.");
        }
    }

    public static final class ChatIsClosed extends ServiceError {
        public ChatIsClosed(Object chatId) {
            super(
                    Code.CHAT_CLOSED,
                    "Chat '" + chatId + "' is closed",
                    "Reopen it with PATCH /api/v1/chats/{chat_id} {\"status\":\"active\"}, or create a new chat.");
        }
    }
}
