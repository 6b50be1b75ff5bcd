package com.chatreview.realtime;

import com.chatreview.chat.ChatId;
import com.chatreview.conversation.ChatListeners;
import java.util.List;

/**
 * Which connections are open, and the caps on them. The in-process registry is the single-node default; a
 * cluster's registry counts the connections of every node.
 */
interface ConnectionRegistry extends ChatListeners {

    enum Opening {
        OPENED,
        /** The tenant has {@code tenantLimit} connections of this kind (with a key, or by a chat's link) open. */
        TENANT_FULL,
        /** A connection without a key, and the chat has {@code linkLimitPerChat} such connections open. */
        CHAT_FULL
    }

    /**
     * Registers the connection unless a cap is reached: the tenant's on connections of its kind (those opened with a
     * key and those opened by a chat's link are counted apart), or for a connection opened by the chat's link (no
     * API key) the chat's cap on those.
     */
    Opening tryOpen(Connection connection, int tenantLimit, int linkLimitPerChat);

    void closed(Connection connection);

    /** This node's connections on the chat. */
    @Override
    List<Connection> onChat(ChatId chatId);

    /** Whether any connection, on any node, is open on the chat. */
    boolean anyOpen(ChatId chatId);

    /** This node's connections. */
    List<Connection> all();
}
