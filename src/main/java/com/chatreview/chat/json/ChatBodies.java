package com.chatreview.chat.json;

import com.chatreview.chat.Chat;
import com.chatreview.chat.ChatMessage;
import com.chatreview.web.PlainTextSerializer;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonRawValue;
import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.annotation.JsonSerialize;

/** The JSON of the chat endpoints, field for field as the interface names them (snake_case). */
public final class ChatBodies {

    private ChatBodies() {}

    public record CreateChatRequest(
            @JsonProperty("user_id") @Schema(requiredMode = Schema.RequiredMode.REQUIRED, example = "student-42")
            String userId,

            @Schema(description = "Generated when absent") String title,

            @Schema(description = "Custom key/value pairs, stored under config.metadata")
            Map<String, Object> metadata) {}

    public record UpdateChatRequest(
            String title,
            Map<String, Object> metadata,
            @Schema(allowableValues = {"active", "closed"}) String status) {}

    /**
     * A chat. {@code message_count} is shown by list and get, {@code status} by get only, as the interface
     * says; {@code last_message_at} is always present, {@code null} while the chat has no messages.
     */
    public record ChatBody(
            String id,
            @JsonProperty("user_id") String userId,
            @JsonProperty("tenant_id") String tenantId,
            String title,

            @JsonRawValue @Schema(type = "object", description = "{\"metadata\": {...}} plus service settings")
            String config,

            @JsonProperty("created_at") Instant createdAt,
            @JsonProperty("updated_at") Instant updatedAt,
            @JsonProperty("last_message_at") @Nullable Instant lastMessageAt,

            @JsonProperty("message_count") @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable
            Integer messageCount,

            @JsonInclude(JsonInclude.Include.NON_NULL) @Schema(allowableValues = {"active", "closed"}) @Nullable
            String status) {

        public static ChatBody created(Chat chat) {
            return of(chat, false, false);
        }

        public static ChatBody listed(Chat chat) {
            return of(chat, true, false);
        }

        public static ChatBody full(Chat chat) {
            return of(chat, true, true);
        }

        private static ChatBody of(Chat chat, boolean withCount, boolean withStatus) {
            return new ChatBody(
                    chat.id().toString(),
                    chat.userId(),
                    chat.tenantId().toString(),
                    chat.title(),
                    chat.config(),
                    chat.createdAt(),
                    chat.updatedAt(),
                    chat.lastMessageAt(),
                    withCount ? chat.messageCount() : null,
                    withStatus ? chat.status().value() : null);
        }
    }

    public record ChatList(
            List<ChatBody> chats,
            long total,
            int offset,
            int limit,
            @JsonProperty("has_more") boolean hasMore) {}

    public record MessageBody(
            String id,

            @JsonSerialize(using = PlainTextSerializer.class)
            String content,

            @JsonProperty("sender_role") @Schema(allowableValues = {"user", "assistant"})
            String senderRole,

            @JsonProperty("media_type") @Nullable String mediaType,
            @JsonProperty("media_url") @Nullable String mediaUrl,
            @JsonProperty("created_at") Instant createdAt,
            @JsonRawValue @Schema(type = "object") String metadata) {

        public static MessageBody of(ChatMessage message) {
            return new MessageBody(
                    message.id().toString(),
                    message.content(),
                    message.senderRole().value(),
                    message.mediaType(),
                    message.mediaUrl(),
                    message.createdAt(),
                    message.metadata());
        }
    }

    public record MessageList(
            List<MessageBody> messages,
            long total,
            int offset,
            int limit,
            @JsonProperty("has_more") boolean hasMore) {}

    public record Deleted(
            boolean success,
            String message,
            @JsonProperty("deleted_at") Instant deletedAt) {}
}
