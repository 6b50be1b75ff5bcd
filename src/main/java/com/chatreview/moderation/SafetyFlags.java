package com.chatreview.moderation;

import com.chatreview.chat.ChatId;
import com.chatreview.database.Sql;
import com.chatreview.kernel.Batches;
import com.chatreview.kernel.Page;
import com.chatreview.metrics.TenantTags;
import com.chatreview.tenancy.TenantId;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.annotation.Transactional;

/**
 * The flags of students' messages (docs/safety.md): stored where the message is stored, in its transaction, listed
 * for the tenant, exported and erased with the user. Each flag is counted in the metrics by category, never with
 * anything of the message.
 */
public class SafetyFlags {

    private final JdbcClient jdbc;
    private final Clock clock;
    private final ApplicationEventPublisher events;
    private final MeterRegistry meters;
    private final TenantTags tenants;

    SafetyFlags(
            JdbcClient jdbc, Clock clock, ApplicationEventPublisher events, MeterRegistry meters, TenantTags tenants) {
        this.jdbc = jdbc;
        this.clock = clock;
        this.events = events;
        this.meters = meters;
        this.tenants = tenants;
    }

    /**
     * Stores the flag of a message the screening flagged, and publishes {@link MessageFlagged}; nothing when the
     * screening found nothing, or the message was flagged already (a message sent again).
     */
    @Transactional
    public Optional<Flag> record(TenantId tenantId, ChatId chatId, String userId, UUID messageId, Screening screening) {
        if (!screening.flagged() || screening.severity() == null) {
            return Optional.empty();
        }
        Flag flag = new Flag(
                UUID.randomUUID(),
                chatId,
                userId,
                messageId,
                screening.categories(),
                screening.severity(),
                screening.screenedBy(),
                Sql.now(clock));
        int stored = jdbc.sql("""
                        INSERT INTO moderation_flags (id, tenant_id, chat_id, user_id, message_id, categories, severity,
                                                      screened_by, created_at)
                        VALUES (:id, :tenant, :chat, :user, :message, :categories, :severity, :screenedBy, :at)
                        ON CONFLICT (message_id) DO NOTHING""")
                .param("id", flag.id())
                .param("tenant", tenantId.value())
                .param("chat", chatId.value())
                .param("user", userId)
                .param("message", messageId)
                .param("categories", categoryNames(flag.categories()))
                .param("severity", flag.severity().value())
                .param("screenedBy", flag.screenedBy())
                .param("at", Sql.at(flag.createdAt()))
                .update();
        if (stored == 0) {
            return Optional.empty();
        }
        for (SafetyCategory category : flag.categories()) {
            Counter.builder("moderation.flags")
                    .description("Students' messages flagged by the safety screening, by category")
                    .tag("category", category.value())
                    .tag("tenant", tenants.of(tenantId))
                    .register(meters)
                    .increment();
        }
        events.publishEvent(new MessageFlagged(tenantId, flag));
        return Optional.of(flag);
    }

    /** A page of the tenant's flags, newest first. */
    public Page<Flag> flags(TenantId tenantId, FlagQuery query) {
        String where = """
                WHERE tenant_id = :tenant
                  AND (CAST(:from AS timestamptz) IS NULL OR created_at >= :from)
                  AND (CAST(:to AS timestamptz) IS NULL OR created_at < :to)
                  AND (CAST(:category AS text) IS NULL OR :category = ANY (categories))""";
        long total = jdbc.sql("SELECT count(*) FROM moderation_flags " + where)
                .param("tenant", tenantId.value())
                .param("from", Sql.at(query.from()))
                .param("to", Sql.at(query.to()))
                .param(
                        "category",
                        query.category() == null ? null : query.category().value())
                .query(Long.class)
                .single();
        var items = jdbc.sql("SELECT * FROM moderation_flags " + where
                        + " ORDER BY created_at DESC, id DESC LIMIT :limit OFFSET :offset")
                .param("tenant", tenantId.value())
                .param("from", Sql.at(query.from()))
                .param("to", Sql.at(query.to()))
                .param(
                        "category",
                        query.category() == null ? null : query.category().value())
                .param("limit", query.page().limit())
                .param("offset", query.page().offset())
                .query((rs, n) -> flag(rs))
                .list();
        return new Page<>(items, total);
    }

    /** Whether the tenant holds a flag of the user's messages. */
    public boolean holdsFlagsOf(TenantId tenantId, String userId) {
        return jdbc.sql("SELECT EXISTS (SELECT 1 FROM moderation_flags WHERE tenant_id = :tenant AND user_id = :user)")
                .param("tenant", tenantId.value())
                .param("user", userId)
                .query(Boolean.class)
                .single();
    }

    /** Every flag of the user's messages, oldest first, 500 read at a time. */
    public void forEachFlagOf(TenantId tenantId, String userId, Consumer<Flag> each) {
        Batches.forEach(
                500,
                last -> jdbc.sql("""
                            SELECT * FROM moderation_flags
                            WHERE tenant_id = :tenant AND user_id = :user AND (created_at, id) > (:afterAt, :after)
                            ORDER BY created_at, id LIMIT 500""")
                        .param("tenant", tenantId.value())
                        .param("user", userId)
                        .param("afterAt", Sql.at(last == null ? Instant.EPOCH : last.createdAt()))
                        .param("after", last == null ? new UUID(0, 0) : last.id())
                        .query((rs, n) -> flag(rs))
                        .list(),
                each);
    }

    /** Erases the flags of the user's messages; how many there were. */
    int erase(TenantId tenantId, String userId) {
        return jdbc.sql("DELETE FROM moderation_flags WHERE tenant_id = :tenant AND user_id = :user")
                .param("tenant", tenantId.value())
                .param("user", userId)
                .update();
    }

    private static String[] categoryNames(Set<SafetyCategory> categories) {
        return categories.stream().map(SafetyCategory::value).toArray(String[]::new);
    }

    private static Flag flag(ResultSet rs) throws SQLException {
        return new Flag(
                rs.getObject("id", UUID.class),
                ChatId.of(rs.getObject("chat_id", UUID.class)),
                rs.getString("user_id"),
                rs.getObject("message_id", UUID.class),
                SafetyCategory.of(rs.getArray("categories")),
                Severity.valueOf(rs.getString("severity").toUpperCase(Locale.ROOT)),
                rs.getString("screened_by"),
                Sql.instantNotNull(rs, "created_at"));
    }
}
