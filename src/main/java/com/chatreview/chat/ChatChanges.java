package com.chatreview.chat;

import java.util.Map;

/** What a {@code PATCH} changes; {@code null} leaves a field as it is. */
public record ChatChanges(String title, Map<String, Object> metadata, ChatStatus status) {}
