package com.chatreview.realtime;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/** The connections of this node; the tenant's count is checked and taken in one step, so it never overshoots. */
class InProcessConnectionRegistry implements ConnectionRegistry {

    private final Map<UUID, Set<Connection>> byChat = new ConcurrentHashMap<>();
    private final Map<UUID, Integer> perTenant = new ConcurrentHashMap<>();
    private final Set<Connection> all = ConcurrentHashMap.newKeySet();

    @Override
    public boolean tryOpen(Connection connection, int limit) {
        boolean[] admitted = {false};
        perTenant.compute(connection.tenantId, (tenant, count) -> {
            int open = count == null ? 0 : count;
            if (open >= limit) {
                return count;
            }
            admitted[0] = true;
            return open + 1;
        });
        if (admitted[0]) {
            all.add(connection);
            byChat.computeIfAbsent(connection.chatId, chat -> ConcurrentHashMap.newKeySet())
                    .add(connection);
        }
        return admitted[0];
    }

    @Override
    public void closed(Connection connection) {
        if (!all.remove(connection)) {
            return;
        }
        perTenant.computeIfPresent(connection.tenantId, (tenant, count) -> count <= 1 ? null : count - 1);
        byChat.computeIfPresent(connection.chatId, (chat, connections) -> {
            connections.remove(connection);
            return connections.isEmpty() ? null : connections;
        });
    }

    @Override
    public List<Connection> onChat(UUID chatId) {
        Set<Connection> connections = byChat.get(chatId);
        return connections == null ? List.of() : List.copyOf(connections);
    }

    @Override
    public boolean anyOpen(UUID chatId) {
        Set<Connection> connections = byChat.get(chatId);
        return connections != null && !connections.isEmpty();
    }

    @Override
    public List<Connection> all() {
        return List.copyOf(all);
    }
}
