package com.chatreview.chat;

import com.chatreview.database.Sql;
import com.chatreview.kernel.Page;
import com.chatreview.kernel.PageRequest;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The {@code messages} table. A page is a range of positions, not an SQL {@code OFFSET}: positions are dense,
 * so offset {@code n} in ascending order starts right after position {@code n}.
 */
@Repository
class Messages {

    private static final String COLUMNS = """
            id, chat_id, position, sender_role, content, media_type, media_url, metadata::text AS metadata,
            client_message_id, created_at, event_seq""";

    private final JdbcClient jdbc;

    Messages(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * Of the tenant's chats owned by others, the messages of the user (sent by them, or replies to them), a batch: the
     * chat and the message of each.
     */
    List<ErasedMessage> ofUserElsewhere(UUID tenantId, String userId, int limit) {
        return jdbc.sql("""
                        SELECT m.chat_id, m.id FROM messages m JOIN chats c ON c.id = m.chat_id
                        WHERE c.tenant_id = :tenant AND c.user_id <> :user
                          AND coalesce(m.metadata ->> 'user_id', m.metadata ->> 'in_reply_to_user_id') = :user
                        ORDER BY m.chat_id, m.position
                        LIMIT :limit""")
                .param("tenant", tenantId)
                .param("user", userId)
                .param("limit", limit)
                .query((rs, row) -> new ErasedMessage(
                        ChatId.of(rs.getObject("chat_id", UUID.class)), rs.getObject("id", UUID.class)))
                .list();
    }

    /**
     * Empties the messages where they stand (their chats' other messages keep their positions): no content, media or
     * client id, metadata {@code {"erased": true}}.
     */
    void empty(List<UUID> messageIds) {
        if (messageIds.isEmpty()) {
            return;
        }
        jdbc.sql("""
                        UPDATE messages SET content = '', media_type = NULL, media_url = NULL, client_message_id = NULL,
                                            metadata = '{"erased": true}'::jsonb
                        WHERE id IN (:ids)""").param("ids", messageIds).update();
    }

    /**
     * Stores the message at the chat's next position in one statement, with everything the chat's row keeps of it:
     * its count and last message's time, the event numbers the message reserves ({@link
     * NewMessage#freshEventSeqBlock()}, whose first is then its {@code eventSeq}), and the title of a chat whose title
     * the service chooses, taken from its first user message ({@code titleIfFirst}, null for an assistant's message);
     * empty when the chat is not the tenant's. The chat's row is locked by the statement, so the chat's messages get their positions, and its first
     * user message is told apart, one at a time.
     */
    Optional<Placed> append(
            UUID tenantId,
            ChatId chatId,
            UUID id,
            NewMessage message,
            String metadataJson,
            @Nullable String titleIfFirst,
            Instant now) {
        return jdbc.sql("""
                WITH placed AS (
                    UPDATE chats SET message_count = message_count + 1, last_message_at = :now,
                        event_seq_reserved = event_seq_reserved + :reserve,
                        title = CASE WHEN CAST(:title AS text) IS NOT NULL AND NOT title_given
                                      AND NOT has_user_message THEN :title ELSE title END,
                        updated_at = CASE WHEN CAST(:title AS text) IS NOT NULL AND NOT title_given
                                           AND NOT has_user_message THEN :now ELSE updated_at END,
                        has_user_message = has_user_message OR :fromUser
                    WHERE id = :chat AND tenant_id = :tenant
                    RETURNING message_count, event_seq_reserved)
                INSERT INTO messages (chat_id, position, id, sender_role, content, media_type, media_url, metadata,
                                      client_message_id, created_at, event_seq)
                SELECT :chat, message_count, :id, :role, :content, :mediaType, :mediaUrl, :metadata::jsonb,
                       :clientMessageId, :now,
                       COALESCE(CAST(:eventSeq AS bigint),
                                CASE WHEN :reserve > 0 THEN event_seq_reserved - :reserve + 1 END)
                FROM placed
                RETURNING position, event_seq""")
                .param("now", Sql.at(now))
                .param("reserve", message.freshEventSeqBlock())
                .param("title", titleIfFirst)
                .param("fromUser", message.role() == SenderRole.USER)
                .param("chat", chatId.value())
                .param("tenant", tenantId)
                .param("id", id)
                .param("role", message.role().value())
                .param("content", message.content())
                .param("mediaType", message.mediaType())
                .param("mediaUrl", message.mediaUrl())
                .param("metadata", metadataJson)
                .param("clientMessageId", message.clientMessageId())
                .param("eventSeq", message.eventSeq())
                .query((rs, row) -> new Placed(rs.getInt(1), rs.getObject(2, Long.class)))
                .optional();
    }

    /** Where {@link #append} put a message: its position, and its {@code eventSeq} if it has one. */
    record Placed(int position, @Nullable Long eventSeq) {}

    /**
     * The chat's page and its message count, in one statement (no transaction, one round trip); empty when the
     * tenant has no such chat.
     */
    Optional<MessagePage> page(UUID tenantId, ChatId chatId, PageRequest page) {
        String range = page.ascending()
                ? "m.position > :offset ORDER BY m.position"
                : "m.position <= c.message_count - :offset ORDER BY m.position DESC";
        return jdbc.sql("SELECT c.message_count AS total, c.updated_at AS chat_updated_at, m.* FROM chats c"
                        + " LEFT JOIN LATERAL (SELECT " + COLUMNS
                        + " FROM messages m WHERE m.chat_id = c.id AND " + range + " LIMIT :limit) m ON true"
                        + " WHERE c.id = :chat AND c.tenant_id = :tenant")
                .param("chat", chatId.value())
                .param("tenant", tenantId)
                .param("offset", page.offset())
                .param("limit", page.limit())
                .query(rs -> {
                    if (!rs.next()) {
                        return Optional.<MessagePage>empty();
                    }
                    long total = rs.getLong("total");
                    Instant updatedAt = Sql.instantNotNull(rs, "chat_updated_at");
                    List<ChatMessage> items = new ArrayList<>(page.limit());
                    do {
                        ChatMessage message = messageAt(rs, 3);
                        if (message != null) { // null: the chat's one row when no message is in the range
                            items.add(message);
                        }
                    } while (rs.next());
                    return Optional.of(new MessagePage(new Page<>(items, total), updatedAt));
                });
    }

    Optional<ChatMessage> byClientMessageId(ChatId chatId, @Nullable String clientMessageId) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM messages WHERE chat_id = :chat AND client_message_id = :client")
                .param("chat", chatId.value())
                .param("client", clientMessageId)
                .query(Messages::message)
                .optional();
    }

    Optional<ChatMessage> byId(ChatId chatId, UUID messageId) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM messages WHERE chat_id = :chat AND id = :id")
                .param("chat", chatId.value())
                .param("id", messageId)
                .query(Messages::message)
                .optional();
    }

    boolean exists(ChatId chatId, UUID messageId) {
        return jdbc.sql("SELECT EXISTS (SELECT 1 FROM messages WHERE chat_id = :chat AND id = :id)")
                .param("chat", chatId.value())
                .param("id", messageId)
                .query(Boolean.class)
                .single();
    }

    /** Messages announced after event {@code seq}, in that order: what a client that saw {@code seq} missed. */
    List<ChatMessage> announcedAfter(ChatId chatId, long seq, int limit) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM messages WHERE chat_id = :chat AND event_seq > :seq"
                        + " ORDER BY event_seq LIMIT :limit")
                .param("chat", chatId.value())
                .param("seq", seq)
                .param("limit", limit)
                .query(Messages::message)
                .list();
    }

    long latestEventSeq(ChatId chatId) {
        return jdbc.sql("SELECT COALESCE(max(event_seq), 0) FROM messages WHERE chat_id = :chat")
                .param("chat", chatId.value())
                .query(Long.class)
                .single();
    }

    /** The chat's messages after {@code position}, in order. */
    List<ChatMessage> after(ChatId chatId, int position, int limit) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM messages WHERE chat_id = :chat AND position > :position"
                        + " ORDER BY position LIMIT :limit")
                .param("chat", chatId.value())
                .param("position", position)
                .param("limit", limit)
                .query(Messages::message)
                .list();
    }

    /** The chat's latest messages, oldest first. */
    List<ChatMessage> latest(ChatId chatId, int count) {
        return jdbc.sql("SELECT * FROM (SELECT " + COLUMNS + " FROM messages WHERE chat_id = :chat"
                        + " ORDER BY position DESC LIMIT :count) latest ORDER BY position")
                .param("chat", chatId.value())
                .param("count", count)
                .query(Messages::message)
                .list();
    }

    private static ChatMessage message(ResultSet rs, int row) throws SQLException {
        return Objects.requireNonNull(messageAt(rs, 1), "a row of messages has its id (NOT NULL)");
    }

    /**
     * The message in the {@link #COLUMNS} that start at column {@code first}, read by position (by name, the
     * driver's look-ups were a tenth of reading a page); {@code null} when its id is (an outer join's empty row).
     */
    private static @Nullable ChatMessage messageAt(ResultSet rs, int first) throws SQLException {
        UUID id = rs.getObject(first, UUID.class);
        if (id == null) {
            return null;
        }
        return new ChatMessage(
                id,
                ChatId.of(rs.getObject(first + 1, UUID.class)),
                rs.getInt(first + 2),
                SenderRole.of(rs.getString(first + 3)),
                rs.getString(first + 4),
                rs.getString(first + 5),
                rs.getString(first + 6),
                rs.getString(first + 7),
                rs.getString(first + 8),
                Sql.instantNotNull(rs, first + 9),
                rs.getObject(first + 10, Long.class));
    }
}
