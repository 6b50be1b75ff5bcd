package com.chatreview.support;

import com.chatreview.tenancy.TenantId;
import java.util.UUID;

/** A tenant made for one test, with clients that carry its key; the key works in both key headers. */
public record TestTenant(UUID uuid, String apiKey, int port) {

    /** The tenant, as the services take it. */
    public TenantId tenantId() {
        return TenantId.of(uuid);
    }

    /** The tenant's id as the API writes it. */
    public String id() {
        return uuid.toString();
    }

    /** A client of the chat endpoints: the key in {@code X-API-Key}. */
    public Api chats() {
        return chats(new Api(port));
    }

    /** A client of the homework endpoints: the key in {@code x-tenant-api-secret}. */
    public Api homework() {
        return homework(new Api(port));
    }

    /** The given client (one with its own client address, say) with the key in {@code X-API-Key}. */
    public Api chats(Api api) {
        return api.with("X-API-Key", apiKey);
    }

    public Api homework(Api api) {
        return api.with("x-tenant-api-secret", apiKey);
    }

    /** A WebSocket to the chat, as {@code userId}, with this tenant's key. */
    public ChatSocket socket(String userId, String chatId) {
        return ChatSocket.connect(port, apiKey, userId, chatId);
    }
}
