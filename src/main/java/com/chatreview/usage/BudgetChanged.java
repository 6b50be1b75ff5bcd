package com.chatreview.usage;

import com.chatreview.tenancy.TenantId;

/** A tenant's budgets were set: work that waited for a budget may run now. Published after the change is stored. */
public record BudgetChanged(TenantId tenant) {}
