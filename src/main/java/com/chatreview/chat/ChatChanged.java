package com.chatreview.chat;

import com.chatreview.tenancy.TenantId;

/** What happened to a chat, published in the transaction that did it (its listeners write in that transaction). */
public sealed interface ChatChanged {

    TenantId tenantId();

    ChatId chatId();

    /** A user or assistant message was stored. */
    record MessageStored(TenantId tenantId, ChatId chatId, ChatMessage message) implements ChatChanged {}

    /** The chat and its messages were deleted. */
    record Deleted(TenantId tenantId, ChatId chatId) implements ChatChanged {}
}
