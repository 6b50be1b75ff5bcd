package com.chatreview.chat;

import java.util.UUID;

/** What happened to a chat, published in the transaction that did it (its listeners write in that transaction). */
public sealed interface ChatChanged {

    UUID tenantId();

    ChatId chatId();

    /** A user or assistant message was stored. */
    record MessageStored(UUID tenantId, ChatId chatId, ChatMessage message) implements ChatChanged {}

    /** The chat and its messages were deleted. */
    record Deleted(UUID tenantId, ChatId chatId) implements ChatChanged {}
}
