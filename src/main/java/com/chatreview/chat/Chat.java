package com.chatreview.chat;

import com.chatreview.tenancy.TenantId;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * A chat as stored.
 *
 * @param config the chat's {@code config} as JSON object text: {@code metadata} plus service settings
 * @param messageCount how many messages the chat holds; also the position of its latest message
 */
public record Chat(
        ChatId id,
        TenantId tenantId,
        String userId,
        String title,
        String config,
        ChatStatus status,
        Instant createdAt,
        Instant updatedAt,
        @Nullable Instant lastMessageAt,
        int messageCount) {

    public boolean closed() {
        return status == ChatStatus.CLOSED;
    }
}
