package com.chatreview.usage;

import com.chatreview.database.Sql;
import com.chatreview.tenancy.TenantId;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Optional;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Records what a stored reply cost, in the caller's transaction (the one that stores the reply), and tells when the
 * tenant's use reaches 80 % and 100 % of a monthly budget.
 */
@Component
public class UsageMeter {

    static final int[] THRESHOLDS = {80, 100};

    private final JdbcClient jdbc;
    private final Clock clock;
    private final ApplicationEventPublisher events;

    UsageMeter(JdbcClient jdbc, Clock clock, ApplicationEventPublisher events) {
        this.jdbc = jdbc;
        this.clock = clock;
        this.events = events;
    }

    /**
     * The reply's tokens, once: a reply stored again (an attempt repeated after a crash) is counted once. One
     * statement: the reply's row, the month's and the user's day's running sums, and the month's budgets to compare
     * them with.
     *
     * @param messageId the stored reply's id (one row per reply)
     * @param userId whom the reply answered
     */
    public void record(
            TenantId tenant,
            UUID chatId,
            UUID messageId,
            String userId,
            UsageKind kind,
            int promptTokens,
            int completionTokens,
            int totalTokens,
            boolean estimated) {
        Instant now = Sql.now(clock);
        Optional<MonthSoFar> month = jdbc.sql("""
                        WITH recorded AS (
                            INSERT INTO ai_usage (message_id, tenant_id, chat_id, user_id, kind, prompt_tokens,
                                                  completion_tokens, total_tokens, estimated, occurred_at)
                            VALUES (:message, :tenant, :chat, :user, :kind, :prompt, :completion, :total, :estimated,
                                    :now)
                            ON CONFLICT (message_id) DO NOTHING
                            RETURNING tenant_id, user_id, kind, total_tokens
                        ), month AS (
                            INSERT INTO usage_months AS m (tenant_id, month, tokens, reviews)
                            SELECT tenant_id, :month, total_tokens, CASE WHEN kind = 'review' THEN 1 ELSE 0 END
                            FROM recorded
                            ON CONFLICT (tenant_id, month) DO UPDATE
                                SET tokens = m.tokens + excluded.tokens, reviews = m.reviews + excluded.reviews
                            RETURNING tokens, reviews
                        ), today AS (
                            INSERT INTO usage_user_days AS d (tenant_id, user_id, day, tokens)
                            SELECT tenant_id, user_id, :day, total_tokens FROM recorded
                            ON CONFLICT (tenant_id, user_id, day) DO UPDATE SET tokens = d.tokens + excluded.tokens
                        )
                        SELECT month.tokens, month.reviews, b.monthly_tokens, b.monthly_reviews
                        FROM month LEFT JOIN usage_budgets b ON b.tenant_id = :tenant""")
                .param("message", messageId)
                .param("tenant", tenant.value())
                .param("chat", chatId)
                .param("user", userId)
                .param("kind", kind.value())
                .param("prompt", Math.max(0, promptTokens))
                .param("completion", Math.max(0, completionTokens))
                .param("total", Math.max(0, totalTokens))
                .param("estimated", estimated)
                .param("now", Sql.at(now))
                .param("month", UsageCalendar.month(now))
                .param("day", UsageCalendar.day(now))
                .query((rs, row) -> new MonthSoFar(
                        rs.getLong(1), rs.getLong(2), rs.getObject(3, Long.class), rs.getObject(4, Long.class)))
                .optional();
        month.ifPresent(sums -> {
            reached(tenant, BudgetKind.MONTHLY_TOKENS, sums.monthlyTokens(), sums.tokens(), now);
            reached(tenant, BudgetKind.MONTHLY_REVIEWS, sums.monthlyReviews(), sums.reviews(), now);
        });
    }

    private record MonthSoFar(
            long tokens,
            long reviews,
            @Nullable Long monthlyTokens,
            @Nullable Long monthlyReviews) {}

    /** Each threshold the month's use is at or past is told once: the first reply to get there tells it. */
    private void reached(TenantId tenant, BudgetKind budget, @Nullable Long limit, long used, Instant now) {
        if (limit == null) {
            return;
        }
        LocalDate month = UsageCalendar.month(now);
        for (int percent : THRESHOLDS) {
            if (used * 100 < limit * percent) {
                return;
            }
            int inserted = jdbc.sql("""
                            INSERT INTO usage_thresholds_reached (tenant_id, month, budget, percent)
                            VALUES (:tenant, :month, :budget, :percent)
                            ON CONFLICT DO NOTHING""")
                    .param("tenant", tenant.value())
                    .param("month", month)
                    .param("budget", budget.value())
                    .param("percent", percent)
                    .update();
            if (inserted == 1) {
                events.publishEvent(new BudgetThresholdReached(
                        tenant, budget, percent, limit, used, month, UsageCalendar.monthEnds(now)));
            }
        }
    }
}
