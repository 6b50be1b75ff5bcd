package com.chatreview.chat;

import java.util.Map;
import java.util.Objects;

/**
 * A message to append to a chat.
 *
 * @param clientMessageId the sender's id for exactly-once sends, or {@code null}; a second message with the
 *     same id in the same chat is not stored again
 */
public record NewMessage(
        SenderRole role,
        String content,
        String mediaType,
        String mediaUrl,
        Map<String, Object> metadata,
        String clientMessageId) {

    public NewMessage {
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(content, "content");
        metadata = metadata == null ? Map.of() : metadata;
    }

    public static NewMessage fromUser(String content, Map<String, Object> metadata, String clientMessageId) {
        return new NewMessage(SenderRole.USER, content, null, null, metadata, clientMessageId);
    }

    public static NewMessage fromAssistant(String content, Map<String, Object> metadata) {
        return new NewMessage(SenderRole.ASSISTANT, content, null, null, metadata, null);
    }
}
