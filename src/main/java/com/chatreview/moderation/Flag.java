package com.chatreview.moderation;

import com.chatreview.chat.ChatId;
import java.time.Instant;
import java.util.Set;
import java.util.UUID;

/** A student's message the screening flagged: where, whose, what it may be about; never its text. */
public record Flag(
        UUID id,
        ChatId chatId,
        String userId,
        UUID messageId,
        Set<SafetyCategory> categories,
        Severity severity,
        String screenedBy,
        Instant createdAt) {}
