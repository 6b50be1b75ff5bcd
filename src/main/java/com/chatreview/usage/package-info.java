/**
 * AI usage (docs/api.md, Usage and budgets): what every assistant reply and review cost, recorded with the reply in one transaction
 * ({@link com.chatreview.usage.UsageMeter}), and the tenant's view of it by day, user, chat or kind
 * ({@link com.chatreview.usage.UsageReports}, {@code GET /api/v1/usage}); the budgets that cap it
 * ({@link com.chatreview.usage.UsageBudgets}): the operator's monthly ones per tenant, the tenant's per-user daily
 * cap, checked before a reply or a review starts.
 */
@org.jspecify.annotations.NullMarked
@org.springframework.modulith.ApplicationModule(displayName = "Usage")
package com.chatreview.usage;
