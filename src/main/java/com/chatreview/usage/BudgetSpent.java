package com.chatreview.usage;

import java.time.Instant;

/**
 * Why new AI work is refused: a budget is spent until {@code resetsAt} (unless it is raised before).
 *
 * @param limit the budget
 * @param used what was spent of it (at least the limit: a reply already streaming when it ran out finishes)
 */
public record BudgetSpent(BudgetKind budget, long limit, long used, Instant resetsAt) {

    /** What the one who cannot wait can do about it. */
    public String fix() {
        return switch (budget) {
            case PER_USER_DAILY_TOKENS ->
                "This user's daily AI allowance is spent: wait until resets_at, or ask the tenant to raise"
                        + " per_user_daily_tokens (PUT /api/v1/usage/limits).";
            case MONTHLY_TOKENS, MONTHLY_REVIEWS ->
                "The tenant's monthly AI budget (" + budget.value() + ") is spent: wait until resets_at, or ask the"
                        + " operator to raise it (PUT /admin/v1/tenants/{tenantId}/budget).";
        };
    }
}
