package com.chatreview.chat;

import java.util.Map;
import org.jspecify.annotations.Nullable;

/** What a {@code PATCH} changes; {@code null} leaves a field as it is. */
public record ChatChanges(
        @Nullable String title,
        @Nullable Map<String, Object> metadata,
        @Nullable ChatStatus status) {}
