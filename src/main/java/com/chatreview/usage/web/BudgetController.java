package com.chatreview.usage.web;

import com.chatreview.tenancy.Tenant;
import com.chatreview.usage.Budget;
import com.chatreview.usage.UsageBudgets;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.time.Instant;
import org.jspecify.annotations.Nullable;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/** The tenant's view of its AI budgets, and its own per-user daily cap (docs/api.md, Usage and budgets). */
@RestController
@Tag(name = "Usage")
@SecurityRequirement(name = "X-API-Key")
class BudgetController {

    private final UsageBudgets budgets;

    BudgetController(UsageBudgets budgets) {
        this.budgets = budgets;
    }

    record BudgetBody(
            @JsonProperty("monthly_tokens") @Nullable Long monthlyTokens,
            @JsonProperty("used_tokens") long usedTokens,
            @JsonProperty("monthly_reviews") @Nullable Long monthlyReviews,
            @JsonProperty("used_reviews") long usedReviews,
            @JsonProperty("per_user_daily_tokens") @Nullable Long perUserDailyTokens,
            @JsonProperty("resets_at") Instant resetsAt) {
        static BudgetBody of(Budget budget) {
            return new BudgetBody(
                    budget.monthlyTokens(),
                    budget.usedTokens(),
                    budget.monthlyReviews(),
                    budget.usedReviews(),
                    budget.perUserDailyTokens(),
                    budget.resetsAt());
        }
    }

    record LimitsBody(
            @JsonProperty("per_user_daily_tokens") @Nullable Long perUserDailyTokens) {}

    @GetMapping("/api/v1/usage/budget")
    @Operation(
            summary = "The tenant's AI budgets and what was spent of them this month",
            description = "Limits are null when unlimited. Monthly budgets are set by the operator; resets_at is when"
                    + " the month (UTC) ends and they start again.")
    BudgetBody budget(Tenant tenant) {
        return BudgetBody.of(budgets.budget(tenant.id()));
    }

    @PutMapping("/api/v1/usage/limits")
    @Operation(
            summary = "Cap what each user may spend in a day",
            description = "per_user_daily_tokens: the most tokens one user's replies and reviews may take in a day"
                    + " (UTC); null for no cap. A user past it is refused new AI work (BUDGET_EXHAUSTED) until the"
                    + " next day; a reply already streaming finishes.")
    LimitsBody limits(Tenant tenant, @RequestBody LimitsBody limits) {
        return new LimitsBody(budgets.setPerUserDaily(tenant.id(), limits.perUserDailyTokens())
                .perUserDailyTokens());
    }
}
