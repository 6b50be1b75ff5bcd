package com.chatreview.realtime;

import com.chatreview.chat.ChatId;
import com.chatreview.tenancy.TenantId;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The connections of this node. A cap is checked and taken in one step (opening and closing are rare beside what a
 * connection does, so one lock will do), so it never overshoots.
 */
class InProcessConnectionRegistry implements ConnectionRegistry {

    private final Map<ChatId, Set<Connection>> byChat = new ConcurrentHashMap<>();
    /** Open connections per tenant, those opened with a key apart from those opened by a chat's link. */
    private final Map<Slots, Integer> perTenant = new ConcurrentHashMap<>();

    private record Slots(TenantId tenantId, boolean link) {
        static Slots of(Connection connection) {
            return new Slots(connection.tenantId, connection.apiKeyId == null);
        }
    }

    private final Set<Connection> all = ConcurrentHashMap.newKeySet();

    @Override
    public synchronized Opening tryOpen(Connection connection, int tenantLimit, int linkLimitPerChat) {
        if (perTenant.getOrDefault(Slots.of(connection), 0) >= tenantLimit) {
            return Opening.TENANT_FULL;
        }
        if (connection.apiKeyId == null
                && onChat(connection.chatId).stream()
                                .filter(open -> open.apiKeyId == null)
                                .count()
                        >= linkLimitPerChat) {
            return Opening.CHAT_FULL;
        }
        perTenant.merge(Slots.of(connection), 1, Integer::sum);
        all.add(connection);
        byChat.computeIfAbsent(connection.chatId, chat -> ConcurrentHashMap.newKeySet())
                .add(connection);
        return Opening.OPENED;
    }

    @Override
    public synchronized void closed(Connection connection) {
        if (!all.remove(connection)) {
            return;
        }
        perTenant.computeIfPresent(Slots.of(connection), (tenant, count) -> count <= 1 ? null : count - 1);
        byChat.computeIfPresent(connection.chatId, (chat, connections) -> {
            connections.remove(connection);
            return connections.isEmpty() ? null : connections;
        });
    }

    @Override
    public List<Connection> onChat(ChatId chatId) {
        Set<Connection> connections = byChat.get(chatId);
        return connections == null ? List.of() : List.copyOf(connections);
    }

    @Override
    public boolean anyOpen(ChatId chatId) {
        Set<Connection> connections = byChat.get(chatId);
        return connections != null && !connections.isEmpty();
    }

    /** Whether the connection is registered here (open, not yet closed). */
    boolean holds(Connection connection) {
        return all.contains(connection);
    }

    @Override
    public List<Connection> all() {
        return List.copyOf(all);
    }
}
