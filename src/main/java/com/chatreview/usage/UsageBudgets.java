package com.chatreview.usage;

import com.chatreview.kernel.InvalidInput;
import com.chatreview.tenancy.TenantId;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

/**
 * A tenant's AI budgets (docs/api.md, Usage and budgets): the operator's monthly ones, the tenant's per-user daily cap, and whether
 * new AI work may start. The check reads the running sums the {@link UsageMeter} keeps with every stored reply, so
 * it holds across nodes; a reply already streaming when a budget runs out finishes, which is the overspend.
 */
@Service
public class UsageBudgets {

    private final JdbcClient jdbc;
    private final Clock clock;
    private final ApplicationEventPublisher events;

    UsageBudgets(JdbcClient jdbc, Clock clock, ApplicationEventPublisher events) {
        this.jdbc = jdbc;
        this.clock = clock;
        this.events = events;
    }

    /** The budgets and this month's use. */
    public Budget budget(TenantId tenant) {
        Instant now = clock.instant();
        return jdbc.sql("""
                        SELECT b.monthly_tokens, b.monthly_reviews, b.per_user_daily_tokens,
                               COALESCE(m.tokens, 0) AS used_tokens, COALESCE(m.reviews, 0) AS used_reviews
                        FROM (SELECT :tenant::uuid AS tenant_id) t
                        LEFT JOIN usage_budgets b ON b.tenant_id = t.tenant_id
                        LEFT JOIN usage_months m ON m.tenant_id = t.tenant_id AND m.month = :month""")
                .param("tenant", tenant.value())
                .param("month", UsageCalendar.month(now))
                .query((rs, row) -> new Budget(
                        limit(rs, "monthly_tokens"),
                        rs.getLong("used_tokens"),
                        limit(rs, "monthly_reviews"),
                        rs.getLong("used_reviews"),
                        limit(rs, "per_user_daily_tokens"),
                        UsageCalendar.monthEnds(now)))
                .single();
    }

    /** The operator's monthly budgets of the tenant (null: unlimited). */
    public Budget setMonthly(TenantId tenant, @Nullable Long monthlyTokens, @Nullable Long monthlyReviews) {
        notNegative("monthly_tokens", monthlyTokens);
        notNegative("monthly_reviews", monthlyReviews);
        jdbc.sql("""
                        INSERT INTO usage_budgets (tenant_id, monthly_tokens, monthly_reviews)
                        VALUES (:tenant, :tokens, :reviews)
                        ON CONFLICT (tenant_id) DO UPDATE
                            SET monthly_tokens = excluded.monthly_tokens, monthly_reviews = excluded.monthly_reviews""")
                .param("tenant", tenant.value())
                .param("tokens", monthlyTokens, java.sql.Types.BIGINT)
                .param("reviews", monthlyReviews, java.sql.Types.BIGINT)
                .update();
        events.publishEvent(new BudgetChanged(tenant));
        return budget(tenant);
    }

    /** The tenant's cap on what each of its users may spend in a day (null: none). */
    public Budget setPerUserDaily(TenantId tenant, @Nullable Long perUserDailyTokens) {
        notNegative("per_user_daily_tokens", perUserDailyTokens);
        jdbc.sql("""
                        INSERT INTO usage_budgets (tenant_id, per_user_daily_tokens) VALUES (:tenant, :tokens)
                        ON CONFLICT (tenant_id) DO UPDATE SET per_user_daily_tokens = excluded.per_user_daily_tokens""")
                .param("tenant", tenant.value())
                .param("tokens", perUserDailyTokens, java.sql.Types.BIGINT)
                .update();
        events.publishEvent(new BudgetChanged(tenant));
        return budget(tenant);
    }

    /**
     * The budget that keeps new AI work of this kind for this user from starting now, if one does; of several spent,
     * the one that frees last.
     */
    public Optional<BudgetSpent> spent(TenantId tenant, String userId, UsageKind kind) {
        Instant now = clock.instant();
        return jdbc.sql("""
                        SELECT b.monthly_tokens, b.monthly_reviews, b.per_user_daily_tokens,
                               COALESCE(m.tokens, 0) AS used_tokens, COALESCE(m.reviews, 0) AS used_reviews,
                               COALESCE(d.tokens, 0) AS user_tokens_today
                        FROM usage_budgets b
                        LEFT JOIN usage_months m ON m.tenant_id = b.tenant_id AND m.month = :month
                        LEFT JOIN usage_user_days d ON d.tenant_id = b.tenant_id AND d.user_id = :user AND d.day = :day
                        WHERE b.tenant_id = :tenant""")
                .param("tenant", tenant.value())
                .param("user", userId)
                .param("month", UsageCalendar.month(now))
                .param("day", UsageCalendar.day(now))
                .query((rs, row) -> spent(rs, kind, now))
                .optional()
                .flatMap(found -> found);
    }

    private static Optional<BudgetSpent> spent(ResultSet rs, UsageKind kind, Instant now) throws SQLException {
        List<BudgetSpent> spent = new ArrayList<>();
        Instant monthEnds = UsageCalendar.monthEnds(now);
        spentOf(BudgetKind.MONTHLY_TOKENS, limit(rs, "monthly_tokens"), rs.getLong("used_tokens"), monthEnds, spent);
        if (kind == UsageKind.REVIEW) {
            spentOf(
                    BudgetKind.MONTHLY_REVIEWS,
                    limit(rs, "monthly_reviews"),
                    rs.getLong("used_reviews"),
                    monthEnds,
                    spent);
        }
        spentOf(
                BudgetKind.PER_USER_DAILY_TOKENS,
                limit(rs, "per_user_daily_tokens"),
                rs.getLong("user_tokens_today"),
                UsageCalendar.dayEnds(now),
                spent);
        return spent.stream().max(Comparator.comparing(BudgetSpent::resetsAt));
    }

    private static void spentOf(
            BudgetKind budget, @Nullable Long limit, long used, Instant resetsAt, List<BudgetSpent> spent) {
        if (limit != null && used >= limit) {
            spent.add(new BudgetSpent(budget, limit, used, resetsAt));
        }
    }

    private static @Nullable Long limit(ResultSet rs, String column) throws SQLException {
        return rs.getObject(column, Long.class);
    }

    private static void notNegative(String field, @Nullable Long value) {
        if (value != null && value < 0) {
            throw InvalidInput.field(
                    field, "must be 0 or more, or null for no limit", "Give a whole number ≥ 0, or null.");
        }
    }
}
