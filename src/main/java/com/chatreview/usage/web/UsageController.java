package com.chatreview.usage.web;

import com.chatreview.kernel.InvalidInput;
import com.chatreview.tenancy.Tenant;
import com.chatreview.usage.UsageReport;
import com.chatreview.usage.UsageReports;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** {@code GET /api/v1/usage}: what the tenant's users spent, by day, user, chat or kind (docs/api.md, Usage and budgets). */
@RestController
@Tag(name = "Usage")
@SecurityRequirement(name = "X-API-Key")
class UsageController {

    private final UsageReports reports;

    UsageController(UsageReports reports) {
        this.reports = reports;
    }

    record CountsBody(
            long replies,
            long reviews,
            @JsonProperty("prompt_tokens") long promptTokens,
            @JsonProperty("completion_tokens") long completionTokens,
            @JsonProperty("total_tokens") long totalTokens) {
        static CountsBody of(UsageReport.Counts counts) {
            return new CountsBody(
                    counts.replies(),
                    counts.reviews(),
                    counts.promptTokens(),
                    counts.completionTokens(),
                    counts.totalTokens());
        }
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    record GroupBody(
            @JsonProperty("period_start") String periodStart,
            @JsonProperty("user_id") @Nullable String userId,
            @JsonProperty("chat_id") @Nullable String chatId,
            @Nullable String kind,
            long replies,
            long reviews,
            @JsonProperty("prompt_tokens") long promptTokens,
            @JsonProperty("completion_tokens") long completionTokens,
            @JsonProperty("total_tokens") long totalTokens) {
        static GroupBody of(UsageReport.Group group) {
            UsageReport.Counts counts = group.counts();
            return new GroupBody(
                    group.periodStart().toString(),
                    group.userId(),
                    group.chatId() == null ? null : group.chatId().toString(),
                    group.kind() == null ? null : group.kind().value(),
                    counts.replies(),
                    counts.reviews(),
                    counts.promptTokens(),
                    counts.completionTokens(),
                    counts.totalTokens());
        }
    }

    record UsageBody(List<GroupBody> usage, CountsBody totals, String from, String to) {}

    @GetMapping("/api/v1/usage")
    @Operation(
            summary = "The tenant's AI usage",
            description = "from/to: days (YYYY-MM-DD, UTC, both included; default the current calendar month; at"
                    + " most 366 days). group_by: day (default), user, chat or kind.")
    UsageBody usage(
            Tenant tenant,
            @RequestParam(required = false) String from,
            @RequestParam(required = false) String to,
            @RequestParam(name = "group_by", required = false) String groupBy) {
        UsageReport report = reports.report(tenant.id(), day("from", from), day("to", to), groupBy(groupBy));
        return new UsageBody(
                report.groups().stream().map(GroupBody::of).toList(),
                CountsBody.of(report.totals()),
                report.from().toString(),
                report.to().toString());
    }

    private static @Nullable LocalDate day(String name, @Nullable String value) {
        if (value == null) {
            return null;
        }
        try {
            return LocalDate.parse(value);
        } catch (DateTimeParseException e) {
            throw InvalidInput.field(name, "must be a day, YYYY-MM-DD", "Give a date such as 2026-11-01.");
        }
    }

    private static UsageReport.GroupBy groupBy(String value) {
        if (value == null) {
            return UsageReport.GroupBy.DAY;
        }
        try {
            return UsageReport.GroupBy.valueOf(value.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw InvalidInput.field(
                    "group_by", "must be day, user, chat or kind", "Give one of day, user, chat, kind.");
        }
    }
}
