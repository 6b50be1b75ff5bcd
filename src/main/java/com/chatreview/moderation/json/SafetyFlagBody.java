package com.chatreview.moderation.json;

import com.chatreview.moderation.Flag;
import com.chatreview.moderation.SafetyCategory;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Instant;
import java.util.List;

/** A flag as the API writes it (docs/safety.md). */
public record SafetyFlagBody(
        String id,
        @JsonProperty("chat_id") String chatId,
        @JsonProperty("user_id") String userId,
        @JsonProperty("message_id") String messageId,
        List<String> categories,
        String severity,
        @JsonProperty("created_at") Instant createdAt) {

    public static SafetyFlagBody of(Flag flag) {
        return new SafetyFlagBody(
                flag.id().toString(),
                flag.chatId().toString(),
                flag.userId(),
                flag.messageId().toString(),
                flag.categories().stream().map(SafetyCategory::value).toList(),
                flag.severity().value(),
                flag.createdAt());
    }
}
