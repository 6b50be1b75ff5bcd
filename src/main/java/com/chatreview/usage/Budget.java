package com.chatreview.usage;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * A tenant's budgets and what its users spent of them this month, as {@code GET /api/v1/usage/budget} tells it.
 * A null limit is no limit.
 *
 * @param resetsAt when the month ends and the monthly budgets start again
 */
public record Budget(
        @Nullable Long monthlyTokens,
        long usedTokens,
        @Nullable Long monthlyReviews,
        long usedReviews,
        @Nullable Long perUserDailyTokens,
        Instant resetsAt) {}
