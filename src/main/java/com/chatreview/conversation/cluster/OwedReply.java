package com.chatreview.conversation.cluster;

import com.chatreview.chat.ChatId;
import com.chatreview.tenancy.TenantId;
import java.util.UUID;

/**
 * A reply the service owes: the frame's question is stored and acknowledged ({@code message_received}), its reply
 * ({@code replyId}) is not stored yet.
 */
public record OwedReply(TenantId tenantId, ChatId chatId, String userId, UUID questionId, UUID replyId) {

    /** The same question answered again, under a new message id. */
    public OwedReply answeredAgain() {
        return new OwedReply(tenantId, chatId, userId, questionId, UUID.randomUUID());
    }
}
