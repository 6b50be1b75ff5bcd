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
 *     {@code null} when no event does (or when the message takes it from a fresh block, below)
 * @param freshEventSeqBlock when positive, the write that gives the message its position also reserves this many
 *     numbers of the chat's event sequence, and the first of them is the message's {@code eventSeq}: a question
 *     starts its frame's block of numbers without a write of its own
 */
public record NewMessage(
        SenderRole role,
        String content,
        @Nullable String mediaType,
        @Nullable String mediaUrl,
        Map<String, Object> metadata,
        @Nullable String clientMessageId,
        @Nullable UUID id,
        @Nullable Long eventSeq,
        int freshEventSeqBlock) {

    public NewMessage {
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(content, "content");
        metadata = metadata == null ? Map.of() : metadata;
        if (freshEventSeqBlock < 0 || (freshEventSeqBlock > 0 && eventSeq != null)) {
            throw new IllegalArgumentException("A message's seq is given or taken from a fresh block, not both");
        }
    }

    public static NewMessage fromUser(String content, Map<String, Object> metadata, @Nullable String clientMessageId) {
        return new NewMessage(SenderRole.USER, content, null, null, metadata, clientMessageId, null, null, 0);
    }

    /** The same message, announced by the event with this {@code seq}. */
    public NewMessage withEventSeq(long seq) {
        return new NewMessage(role, content, mediaType, mediaUrl, metadata, clientMessageId, id, seq, 0);
    }

    /**
     * The same message, announced by the first of {@code size} numbers the chat reserves for its events as the message
     * is stored (the stored message carries it as its {@code eventSeq}).
     */
    public NewMessage withFreshEventSeqBlock(int size) {
        return new NewMessage(role, content, mediaType, mediaUrl, metadata, clientMessageId, id, null, size);
    }

    /** The same message, to be stored under this id. */
    public NewMessage withId(UUID messageId) {
        return new NewMessage(
                role, content, mediaType, mediaUrl, metadata, clientMessageId, messageId, eventSeq, freshEventSeqBlock);
    }

    public static NewMessage fromAssistant(String content, Map<String, Object> metadata) {
        return new NewMessage(SenderRole.ASSISTANT, content, null, null, metadata, null, null, null, 0);
    }
}
