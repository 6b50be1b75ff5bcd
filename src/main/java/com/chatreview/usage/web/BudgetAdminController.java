package com.chatreview.usage.web;

import com.chatreview.tenancy.Tenancy;
import com.chatreview.tenancy.TenantId;
import com.chatreview.usage.UsageBudgets;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/** The operator's monthly AI budgets of a tenant (behind {@code X-Admin-Token}, like all of /admin). */
@RestController
@Tag(name = "Admin")
@SecurityRequirement(name = "admin-token")
class BudgetAdminController {

    private final Tenancy tenancy;
    private final UsageBudgets budgets;

    BudgetAdminController(Tenancy tenancy, UsageBudgets budgets) {
        this.tenancy = tenancy;
        this.budgets = budgets;
    }

    record MonthlyBudget(
            @JsonProperty("monthly_tokens") Long monthlyTokens,
            @JsonProperty("monthly_reviews") Long monthlyReviews) {}

    @GetMapping("/admin/v1/tenants/{tenantId}/budget")
    @Operation(summary = "A tenant's AI budgets and what it spent of them this month")
    BudgetController.BudgetBody budget(@PathVariable String tenantId) {
        return BudgetController.BudgetBody.of(budgets.budget(tenancy.existing(tenantId)));
    }

    @PutMapping("/admin/v1/tenants/{tenantId}/budget")
    @Operation(
            summary = "Set a tenant's monthly AI budgets",
            description = "monthly_tokens, monthly_reviews: the most the tenant may spend in a calendar month (UTC);"
                    + " null (or left out) for unlimited. Past one, new replies are refused (BUDGET_EXHAUSTED) and"
                    + " reviews wait (waiting_for_budget) until the month ends or the budget is raised; raising it"
                    + " starts the waiting reviews at once.")
    BudgetController.BudgetBody setBudget(@PathVariable String tenantId, @RequestBody MonthlyBudget budget) {
        TenantId tenant = tenancy.existing(tenantId);
        return BudgetController.BudgetBody.of(
                budgets.setMonthly(tenant, budget.monthlyTokens(), budget.monthlyReviews()));
    }
}
