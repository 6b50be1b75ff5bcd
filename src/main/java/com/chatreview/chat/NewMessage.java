package com.chatreview.chat;

import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * A message to append to a chat.
 *
 * @param clientMessageId the sender's id for exactly-once sends, or {@code null}; a second message with the
 *     same id in the same chat is not stored again
 * @param id the id the message is to be stored under, or {@code null} for a new one (a streamed reply is
 *     announced under its id before it is stored)
 * @param eventSeq the {@code seq} of the event that announces the stored message on WebSocket connections, or
 *     {@code null} when no event does
 */
public record NewMessage(
        SenderRole role,
        String content,
        @Nullable String mediaType,
        @Nullable String mediaUrl,
        Map<String, Object> metadata,
        @Nullable String clientMessageId,
        @Nullable UUID id,
        @Nullable Long eventSeq) {

    public NewMessage {
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(content, "content");
        metadata = metadata == null ? Map.of() : metadata;
    }

    public static NewMessage fromUser(String content, Map<String, Object> metadata, @Nullable String clientMessageId) {
        return new NewMessage(SenderRole.USER, content, null, null, metadata, clientMessageId, null, null);
    }

    /** The same message, announced by the event with this {@code seq}. */
    public NewMessage withEventSeq(long seq) {
        return new NewMessage(role, content, mediaType, mediaUrl, metadata, clientMessageId, id, seq);
    }

    /** The same message, to be stored under this id. */
    public NewMessage withId(UUID messageId) {
        return new NewMessage(role, content, mediaType, mediaUrl, metadata, clientMessageId, messageId, eventSeq);
    }

    public static NewMessage fromAssistant(String content, Map<String, Object> metadata) {
        return new NewMessage(SenderRole.ASSISTANT, content, null, null, metadata, null, null, null);
    }
}
