package com.chatreview.conversation;

import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A client's question to a chat, as its frame carried it.
 *
 * @param clientMessageId the client's id for exactly-once sends: a question sent again under it is stored once
 */
public record Question(
        String content,
        Map<String, Object> metadata,
        @Nullable String clientMessageId) {

    public Question {
        Objects.requireNonNull(content, "content");
        Objects.requireNonNull(metadata, "metadata"); // its values may be JSON null: not Map.copyOf
    }
}
