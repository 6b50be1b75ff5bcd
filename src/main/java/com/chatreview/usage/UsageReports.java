package com.chatreview.usage;

import com.chatreview.database.Sql;
import com.chatreview.kernel.Batches;
import com.chatreview.kernel.InvalidInput;
import com.chatreview.tenancy.TenantId;
import com.chatreview.usage.UsageReport.Counts;
import com.chatreview.usage.UsageReport.Group;
import com.chatreview.usage.UsageReport.GroupBy;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

/** What a tenant's users spent, as {@code GET /api/v1/usage} tells it. */
@Service
public class UsageReports {

    /** The longest range one report covers. */
    public static final int MAX_DAYS = 366;

    private final JdbcClient jdbc;
    private final Clock clock;

    UsageReports(JdbcClient jdbc, Clock clock) {
        this.jdbc = jdbc;
        this.clock = clock;
    }

    /** How many records {@link #forEachRecordOf} reads at once. */
    static final int BATCH = 500;

    /**
     * Hands over each usage record of the user's replies and reviews, oldest first, reading {@value #BATCH} at a
     * time and holding no connection while {@code each} runs.
     */
    public void forEachRecordOf(TenantId tenant, String userId, Consumer<UsageRecord> each) {
        Batches.forEach(
                BATCH,
                last -> jdbc.sql("""
                            SELECT message_id, chat_id, kind, prompt_tokens, completion_tokens, total_tokens, estimated,
                                   occurred_at
                            FROM ai_usage
                            WHERE tenant_id = :tenant AND user_id = :user
                              AND (CAST(:afterId AS uuid) IS NULL OR (occurred_at, message_id) > (:afterAt, :afterId))
                            ORDER BY occurred_at, message_id LIMIT :limit""")
                        .param("tenant", tenant.value())
                        .param("user", userId)
                        .param("afterAt", last == null ? null : Sql.at(last.occurredAt()))
                        .param("afterId", last == null ? null : last.messageId())
                        .param("limit", BATCH)
                        .query((rs, n) -> new UsageRecord(
                                rs.getObject("message_id", UUID.class),
                                rs.getObject("chat_id", UUID.class),
                                UsageKind.valueOf(rs.getString("kind").toUpperCase(Locale.ROOT)),
                                rs.getInt("prompt_tokens"),
                                rs.getInt("completion_tokens"),
                                rs.getInt("total_tokens"),
                                rs.getBoolean("estimated"),
                                Sql.instantNotNull(rs, "occurred_at")))
                        .list(),
                each);
    }

    public boolean hasRecordsOf(TenantId tenant, String userId) {
        return jdbc.sql("SELECT EXISTS (SELECT 1 FROM ai_usage WHERE tenant_id = :tenant AND user_id = :user)")
                .param("tenant", tenant.value())
                .param("user", userId)
                .query(Boolean.class)
                .single();
    }

    /**
     * The tenant's usage from {@code from} to {@code to} (days in UTC, both included; by default the current
     * calendar month), grouped.
     */
    public UsageReport report(TenantId tenant, @Nullable LocalDate from, @Nullable LocalDate to, GroupBy groupBy) {
        LocalDate today = LocalDate.ofInstant(clock.instant(), ZoneOffset.UTC);
        LocalDate first = from != null ? from : today.withDayOfMonth(1);
        LocalDate last = to != null ? to : first.withDayOfMonth(first.lengthOfMonth());
        if (last.isBefore(first)) {
            throw InvalidInput.field("to", "must not be before from", "Give a to on or after from.");
        }
        if (ChronoUnit.DAYS.between(first, last) + 1 > MAX_DAYS) {
            throw InvalidInput.field(
                    "to", "must be at most " + MAX_DAYS + " days after from", "Ask for a year at most at a time.");
        }
        String key = switch (groupBy) {
            case DAY -> "(occurred_at AT TIME ZONE 'UTC')::date";
            case USER -> "user_id";
            case CHAT -> "chat_id";
            case KIND -> "kind";
        };
        List<Group> groups = jdbc.sql("""
                        SELECT %s AS group_key,
                               count(*) FILTER (WHERE kind = 'chat') AS replies,
                               count(*) FILTER (WHERE kind = 'review') AS reviews,
                               sum(prompt_tokens) AS prompt, sum(completion_tokens) AS completion,
                               sum(total_tokens) AS total
                        FROM ai_usage
                        WHERE tenant_id = :tenant AND occurred_at >= :from AND occurred_at < :until
                        GROUP BY 1 ORDER BY 1""".formatted(key))
                .param("tenant", tenant.value())
                .param("from", Sql.at(first.atStartOfDay(ZoneOffset.UTC).toInstant()))
                .param(
                        "until",
                        Sql.at(last.plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant()))
                .query((rs, row) -> group(rs, groupBy, first))
                .list();
        Counts totals = groups.stream()
                .map(Group::counts)
                .reduce(
                        Counts.NONE,
                        (a, b) -> new Counts(
                                a.replies() + b.replies(),
                                a.reviews() + b.reviews(),
                                a.promptTokens() + b.promptTokens(),
                                a.completionTokens() + b.completionTokens(),
                                a.totalTokens() + b.totalTokens()));
        return new UsageReport(groups, totals, first, last);
    }

    private static Group group(ResultSet rs, GroupBy groupBy, LocalDate first) throws SQLException {
        Counts counts = new Counts(
                rs.getLong("replies"),
                rs.getLong("reviews"),
                rs.getLong("prompt"),
                rs.getLong("completion"),
                rs.getLong("total"));
        return switch (groupBy) {
            case DAY -> new Group(rs.getObject("group_key", LocalDate.class), null, null, null, counts);
            case USER -> new Group(first, rs.getString("group_key"), null, null, counts);
            case CHAT -> new Group(first, null, rs.getObject("group_key", UUID.class), null, counts);
            case KIND ->
                new Group(
                        first,
                        null,
                        null,
                        UsageKind.valueOf(rs.getString("group_key").toUpperCase(Locale.ROOT)),
                        counts);
        };
    }
}
