package com.chatreview.conversation;

import com.chatreview.chat.ChatId;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.annotation.JsonNaming;

/**
 * The events a WebSocket client receives (docs/api.md, Events), one record per
 * {@code event_type}: the wire format, written by the application's JSON mapper, the same on every node. A field
 * that is null is left out; the order of the fields is the order clients have always seen.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, include = JsonTypeInfo.As.PROPERTY, property = "event_type")
@JsonSubTypes({
    @JsonSubTypes.Type(value = ServerEvent.ConnectionEstablished.class, name = "connection_established"),
    @JsonSubTypes.Type(value = ServerEvent.UserCreated.class, name = "user_created"),
    @JsonSubTypes.Type(value = ServerEvent.MessageReceived.class, name = "message_received"),
    @JsonSubTypes.Type(value = ServerEvent.StreamStarted.class, name = "message_stream_started"),
    @JsonSubTypes.Type(value = ServerEvent.StreamToken.class, name = "message_stream_token"),
    @JsonSubTypes.Type(value = ServerEvent.StreamEnded.class, name = "message_stream_ended"),
    @JsonSubTypes.Type(value = ServerEvent.Error.class, name = "error")
})
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
public sealed interface ServerEvent {

    Instant timestamp();

    /**
     * The event's place in its chat's sequence, which every connection on the chat receives in {@code seq} order;
     * null for an event to one connection outside it.
     */
    @Nullable
    Long seq();

    @JsonPropertyOrder({"timestamp", "user_id", "chat_id", "tenant_id", "last_seq"})
    record ConnectionEstablished(Instant timestamp, String userId, ChatId chatId, UUID tenantId, long lastSeq)
            implements ServerEvent {
        @Override
        public @Nullable Long seq() {
            return null;
        }
    }

    @JsonPropertyOrder({"timestamp", "user_id"})
    record UserCreated(Instant timestamp, String userId) implements ServerEvent {
        @Override
        public @Nullable Long seq() {
            return null;
        }
    }

    /** A user message stored in the chat; its {@code client_message_id} when the client gave one. */
    @JsonPropertyOrder({"timestamp", "message_id", "chat_id", "user_id", "content", "client_message_id", "seq"})
    record MessageReceived(
            Instant timestamp,
            UUID messageId,
            ChatId chatId,
            String userId,
            String content,
            @Nullable String clientMessageId,
            @Nullable Long seq)
            implements ServerEvent {}

    @JsonPropertyOrder({"timestamp", "chat_id", "user_id", "message_id", "seq"})
    record StreamStarted(Instant timestamp, ChatId chatId, String userId, UUID messageId, Long seq)
            implements ServerEvent {}

    @JsonPropertyOrder({"timestamp", "chat_id", "message_id", "token", "seq"})
    record StreamToken(Instant timestamp, ChatId chatId, UUID messageId, String token, Long seq)
            implements ServerEvent {}

    /** The assistant's reply, stored: its whole content. */
    @JsonPropertyOrder({"timestamp", "message_id", "chat_id", "user_id", "content", "seq"})
    record StreamEnded(Instant timestamp, UUID messageId, ChatId chatId, String userId, String content, Long seq)
            implements ServerEvent {}

    /**
     * An {@code error}: to one connection (a refused frame or connection), or to the whole chat, with its
     * {@code chat_id} and {@code seq}, when a reply failed.
     */
    @JsonPropertyOrder({"timestamp", "error_code", "error_message", "details", "chat_id", "seq"})
    record Error(
            Instant timestamp,
            String errorCode,
            String errorMessage,
            Map<String, Object> details,
            @Nullable ChatId chatId,
            @Nullable Long seq)
            implements ServerEvent {

        /** This error as an event of the chat's sequence. */
        Error inChat(ChatId chatId, long seq) {
            return new Error(timestamp, errorCode, errorMessage, details, chatId, seq);
        }
    }
}
