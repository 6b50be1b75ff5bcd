package com.chatreview.usage;

import java.time.Instant;
import java.util.UUID;

/**
 * What one stored reply or review cost, as recorded.
 *
 * @param messageId the assistant's reply (for a review: the review message of the submission's chat)
 * @param estimated whether the counts are estimated from the text's length (the provider gave none)
 */
public record UsageRecord(
        UUID messageId,
        UUID chatId,
        UsageKind kind,
        int promptTokens,
        int completionTokens,
        int totalTokens,
        boolean estimated,
        Instant occurredAt) {}
