package com.chatreview.chat;

import com.chatreview.database.Sql;
import com.chatreview.kernel.PageRequest;
import com.chatreview.tenancy.TenantId;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The {@code chats} table. Every query names the tenant: a chat of another tenant is simply not there. */
@Repository
class Chats {

    private static final String COLUMNS = """
            id, tenant_id, user_id, title, config::text AS config, status, created_at, updated_at,
            last_message_at, message_count""";

    private final JdbcClient jdbc;

    Chats(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    void insert(Chat chat, boolean titleGiven) {
        jdbc.sql("""
                INSERT INTO chats (id, tenant_id, user_id, title, title_given, config, status, created_at,
                                   updated_at, last_message_at, message_count)
                VALUES (:id, :tenant, :user, :title, :titleGiven, :config::jsonb, :status, :created, :updated,
                        NULL, 0)""")
                .param("id", chat.id().value())
                .param("tenant", chat.tenantId().value())
                .param("user", chat.userId())
                .param("title", chat.title())
                .param("titleGiven", titleGiven)
                .param("config", chat.config())
                .param("status", chat.status().value())
                .param("created", Sql.at(chat.createdAt()))
                .param("updated", Sql.at(chat.updatedAt()))
                .update();
    }

    Optional<Chat> find(UUID tenantId, ChatId chatId) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM chats WHERE id = :id AND tenant_id = :tenant")
                .param("id", chatId.value())
                .param("tenant", tenantId)
                .query(Chats::chat)
                .optional();
    }

    /**
     * The tenant's chat, its latest event seq, and its user created if new (only when the chat exists): one
     * statement, so that a WebSocket handshake costs the database one round trip.
     */
    Optional<ChatEntry> enter(UUID tenantId, ChatId chatId, String userId, Instant now) {
        return jdbc.sql("WITH chat AS (SELECT " + COLUMNS + " FROM chats WHERE id = :id AND tenant_id = :tenant),"
                        + " created AS (INSERT INTO users (tenant_id, user_id, created_at)"
                        + " SELECT :tenant, :user, :now WHERE EXISTS (SELECT 1 FROM chat)"
                        + " ON CONFLICT DO NOTHING RETURNING 1)"
                        + " SELECT chat.*, (SELECT COALESCE(max(event_seq), 0) FROM messages WHERE chat_id = :id)"
                        + " AS latest_seq, EXISTS (SELECT 1 FROM created) AS user_created FROM chat")
                .param("id", chatId.value())
                .param("tenant", tenantId)
                .param("user", userId)
                .param("now", Sql.at(now))
                .query((rs, row) ->
                        new ChatEntry(chat(rs, row), rs.getLong("latest_seq"), rs.getBoolean("user_created")))
                .optional();
    }

    /** The chat whatever its tenant, and its latest event seq, for its owner's chat page: one statement. */
    Optional<ChatEntry> enterByLink(ChatId chatId) {
        return jdbc.sql("SELECT " + COLUMNS + ", (SELECT COALESCE(max(event_seq), 0) FROM messages"
                        + " WHERE chat_id = :id) AS latest_seq FROM chats WHERE id = :id")
                .param("id", chatId.value())
                .query((rs, row) -> new ChatEntry(chat(rs, row), rs.getLong("latest_seq"), false))
                .optional();
    }

    /** The chat whatever its tenant: only for a caller whose credential is the chat's id itself (the chat page). */
    Optional<Chat> findAnyTenant(ChatId chatId) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM chats WHERE id = :id")
                .param("id", chatId.value())
                .query(Chats::chat)
                .optional();
    }

    long countOfUser(UUID tenantId, String userId) {
        return jdbc.sql("SELECT count(*) FROM chats WHERE tenant_id = :tenant AND user_id = :user")
                .param("tenant", tenantId)
                .param("user", userId)
                .query(Long.class)
                .single();
    }

    /**
     * The tenant's chats whose last message (or creation, without one) is before {@code cutoff}, oldest activity
     * first, after {@code after}; without review chats (config kind {@code homework_review}, as the submission module
     * creates them), which go with their submission.
     */
    List<Chat> inactiveBefore(UUID tenantId, Instant cutoff, @Nullable Chat after, int limit) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM chats WHERE tenant_id = :tenant"
                        + " AND COALESCE(last_message_at, created_at) < :cutoff"
                        + " AND config ->> 'kind' IS DISTINCT FROM 'homework_review'"
                        + " AND (CAST(:afterId AS uuid) IS NULL"
                        + "      OR (COALESCE(last_message_at, created_at), id) > (:afterAt, :afterId))"
                        + " ORDER BY COALESCE(last_message_at, created_at), id LIMIT :limit")
                .param("tenant", tenantId)
                .param("cutoff", Sql.at(cutoff))
                .param("afterAt", after == null ? null : Sql.at(lastActivity(after)))
                .param("afterId", after == null ? null : after.id().value())
                .param("limit", limit)
                .query(Chats::chat)
                .list();
    }

    private static Instant lastActivity(Chat chat) {
        Instant last = chat.lastMessageAt();
        return last != null ? last : chat.createdAt();
    }

    /** The user's chats created after {@code after} (all of them from the first when null), oldest first. */
    List<Chat> ofUserAfter(UUID tenantId, String userId, @Nullable Chat after, int limit) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM chats WHERE tenant_id = :tenant AND user_id = :user"
                        + " AND (CAST(:afterId AS uuid) IS NULL OR (created_at, id) > (:afterAt, :afterId))"
                        + " ORDER BY created_at, id LIMIT :limit")
                .param("tenant", tenantId)
                .param("user", userId)
                .param("afterAt", after == null ? null : Sql.at(after.createdAt()))
                .param("afterId", after == null ? null : after.id().value())
                .param("limit", limit)
                .query(Chats::chat)
                .list();
    }

    List<Chat> pageOfUser(UUID tenantId, String userId, PageRequest page) {
        String direction = page.ascending() ? "ASC" : "DESC";
        return jdbc.sql("SELECT " + COLUMNS + " FROM chats WHERE tenant_id = :tenant AND user_id = :user"
                        + " ORDER BY created_at " + direction + ", id " + direction
                        + " OFFSET :offset LIMIT :limit")
                .param("tenant", tenantId)
                .param("user", userId)
                .param("offset", page.offset())
                .param("limit", page.limit())
                .query(Chats::chat)
                .list();
    }

    /**
     * Takes the next message position of the chat, locking its row until the transaction ends, so that
     * messages of one chat are numbered 1, 2, 3... without gaps whoever appends them.
     */
    long reserveEventSequence(ChatId chatId, int size) {
        return jdbc.sql("""
                UPDATE chats SET event_seq_reserved = event_seq_reserved + :size WHERE id = :id
                RETURNING event_seq_reserved""")
                .param("size", size)
                .param("id", chatId.value())
                .query(Long.class)
                .optional()
                .orElseThrow(() -> new ChatErrors.ChatNotFound(chatId));
    }

    /** The chats changed now (a message emptied in them): their {@code updated_at}. */
    void touch(List<ChatId> chatIds, Instant now) {
        if (chatIds.isEmpty()) {
            return;
        }
        jdbc.sql("UPDATE chats SET updated_at = :now WHERE id IN (:ids)")
                .param("now", Sql.at(now))
                .param("ids", chatIds.stream().map(ChatId::value).toList())
                .update();
    }

    /** Replaces the service's title by one made from the first user message; a given title is kept. */
    void update(ChatId chatId, ChatChanges changes, @Nullable String metadataJson, Instant now) {
        jdbc.sql("""
                UPDATE chats SET
                    title = COALESCE(:title, title),
                    title_given = title_given OR CAST(:title AS text) IS NOT NULL,
                    config = CASE WHEN :metadata::jsonb IS NULL THEN config
                                  ELSE jsonb_set(config, '{metadata}', :metadata::jsonb) END,
                    status = COALESCE(:status, status),
                    updated_at = :now
                WHERE id = :id""")
                .param("title", changes.title())
                .param("metadata", metadataJson)
                .param(
                        "status",
                        changes.status() == null ? null : changes.status().value())
                .param("now", Sql.at(now))
                .param("id", chatId.value())
                .update();
    }

    /** Deletes the chat and its messages: how many messages went, or empty when there was no such chat. */
    OptionalInt deleteCounting(UUID tenantId, ChatId chatId) {
        return jdbc.sql("DELETE FROM chats WHERE id = :id AND tenant_id = :tenant RETURNING message_count")
                .param("id", chatId.value())
                .param("tenant", tenantId)
                .query((rs, n) -> rs.getInt(1))
                .optional()
                .map(OptionalInt::of)
                .orElse(OptionalInt.empty());
    }

    boolean delete(UUID tenantId, ChatId chatId) {
        return jdbc.sql("DELETE FROM chats WHERE id = :id AND tenant_id = :tenant")
                        .param("id", chatId.value())
                        .param("tenant", tenantId)
                        .update()
                == 1;
    }

    private static Chat chat(ResultSet rs, int row) throws SQLException {
        return new Chat(
                ChatId.of(rs.getObject("id", UUID.class)),
                TenantId.of(rs.getObject("tenant_id", UUID.class)),
                rs.getString("user_id"),
                rs.getString("title"),
                rs.getString("config"),
                ChatStatus.of(rs.getString("status")).orElseThrow(),
                Sql.instantNotNull(rs, "created_at"),
                Sql.instantNotNull(rs, "updated_at"),
                Sql.instant(rs, "last_message_at"),
                rs.getInt("message_count"));
    }
}
