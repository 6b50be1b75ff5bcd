package com.chatreview.chat;

import java.time.Instant;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * A stored message.
 *
 * @param position 1 for the chat's first message, 2 for the next: dense, never reused
 * @param metadata the message's {@code metadata} as JSON object text
 * @param eventSeq the {@code seq} of the event that announced the stored message, {@code null} if none did
 */
public record ChatMessage(
        UUID id,
        ChatId chatId,
        int position,
        SenderRole senderRole,
        String content,
        @Nullable String mediaType,
        @Nullable String mediaUrl,
        String metadata,
        @Nullable String clientMessageId,
        Instant createdAt,
        @Nullable Long eventSeq) {}
