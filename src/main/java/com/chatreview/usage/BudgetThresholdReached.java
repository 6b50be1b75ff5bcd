package com.chatreview.usage;

import com.chatreview.tenancy.TenantId;
import java.time.Instant;
import java.time.LocalDate;

/**
 * A tenant's use reached 80 % or 100 % of one of its monthly budgets, for the first time in the month. Published in
 * the transaction that stores the reply that reached it (once per budget, threshold and month, on every node).
 *
 * @param month the month's first day
 */
public record BudgetThresholdReached(
        TenantId tenant, BudgetKind budget, int percent, long limit, long used, LocalDate month, Instant resetsAt) {}
