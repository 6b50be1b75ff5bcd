package com.chatreview.realtime;

import java.util.List;
import java.util.UUID;

/**
 * Which connections are open, and the per-tenant cap on them. The in-process registry is the single-node
 * default; a cluster's registry counts the connections of every node.
 */
interface ConnectionRegistry {

    /** Registers the connection unless the tenant already has {@code limit} open; false when it has. */
    boolean tryOpen(Connection connection, int limit);

    void closed(Connection connection);

    /** This node's connections on the chat. */
    List<Connection> onChat(UUID chatId);

    /** Whether any connection, on any node, is open on the chat. */
    boolean anyOpen(UUID chatId);

    /** This node's connections. */
    List<Connection> all();
}
