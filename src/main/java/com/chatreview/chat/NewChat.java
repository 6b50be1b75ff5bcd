package com.chatreview.chat;

import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What it takes to create a chat.
 *
 * @param title the given title, or {@code null} for the service's ("New chat", then one made from the first
 *     user message)
 * @param metadata the client's key/value pairs, stored under {@code config.metadata}
 * @param settings service settings stored beside {@code metadata} in {@code config} (a review chat's
 *     {@code kind}, {@code homework_id}, {@code submission_id})
 */
public record NewChat(
        String userId, @Nullable String title, Map<String, Object> metadata, Map<String, Object> settings) {

    public NewChat {
        Objects.requireNonNull(userId, "userId");
        metadata = metadata == null ? Map.of() : metadata;
        settings = settings == null ? Map.of() : settings;
    }
}
