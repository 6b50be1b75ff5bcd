package com.chatreview.usage;

import java.util.Locale;

/** The budgets a tenant's AI work counts against (docs/api.md, Usage and budgets). */
public enum BudgetKind {
    /** The operator's: tokens per calendar month, for the whole tenant. */
    MONTHLY_TOKENS,
    /** The operator's: reviews per calendar month, for the whole tenant. */
    MONTHLY_REVIEWS,
    /** The tenant's: tokens per day, for each of its users. */
    PER_USER_DAILY_TOKENS;

    /** As the API writes it. */
    public String value() {
        return name().toLowerCase(Locale.ROOT);
    }
}
