package com.chatreview.moderation.web;

import com.chatreview.kernel.FieldProblem;
import com.chatreview.kernel.InvalidInput;
import com.chatreview.kernel.Page;
import com.chatreview.kernel.PageRequest;
import com.chatreview.moderation.AlertSettings;
import com.chatreview.moderation.Flag;
import com.chatreview.moderation.FlagQuery;
import com.chatreview.moderation.SafetyCategory;
import com.chatreview.moderation.SafetyFlags;
import com.chatreview.moderation.SchoolAlerts;
import com.chatreview.moderation.json.SafetyFlagBody;
import com.chatreview.tenancy.Tenant;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** The school's side of the safety screening (docs/safety.md): the flags, and its settings. */
@RestController
@Tag(name = "Safety")
@SecurityRequirement(name = "X-API-Key")
class ModerationController {

    /** The categories as the API names them (a test holds them to SafetyCategory's). */
    static final String CATEGORIES = "self_harm, violence, sexual_minors, harassment, contact_details";

    private final SafetyFlags flags;
    private final SchoolAlerts alerts;

    ModerationController(SafetyFlags flags, SchoolAlerts alerts) {
        this.flags = flags;
        this.alerts = alerts;
    }

    record FlagsBody(
            List<SafetyFlagBody> flags,
            long total,
            int offset,
            int limit,
            @JsonProperty("has_more") boolean hasMore) {}

    @GetMapping("/api/v1/moderation/flags")
    @Operation(
            summary = "The flags of students' messages, newest first",
            description = "from (included), to (excluded): an instant (2026-12-07T10:00:00Z) or a day (2026-12-07:"
                    + " its start; for to, the day is included). category: one of " + CATEGORIES
                    + ". limit 1-100 (default 50), offset.")
    FlagsBody flags(
            Tenant tenant,
            @RequestParam(required = false) @Nullable String from,
            @RequestParam(required = false) @Nullable String to,
            @RequestParam(required = false) @Nullable String category,
            @RequestParam(required = false) @Nullable String limit,
            @RequestParam(required = false) @Nullable String offset) {
        List<FieldProblem> problems = new ArrayList<>();
        Instant fromInstant = instant("from", from, false, problems);
        Instant toInstant = instant("to", to, true, problems);
        SafetyCategory only = null;
        if (category != null) {
            only = SafetyCategory.of(category).orElse(null);
            if (only == null) {
                problems.add(new FieldProblem("category", "must be one of " + CATEGORIES + ", was '" + category + "'"));
            }
        }
        if (fromInstant != null && toInstant != null && !fromInstant.isBefore(toInstant)) {
            problems.add(new FieldProblem("to", "must be after from"));
        }
        if (!problems.isEmpty()) {
            throw InvalidInput.fields(
                    problems,
                    "Give from and to as 2026-12-07T10:00:00Z or 2026-12-07, and a category among " + CATEGORIES + ".");
        }
        PageRequest page = PageRequest.parse(offset, limit, null, 50, false);
        Page<Flag> found = flags.flags(tenant.id(), new FlagQuery(fromInstant, toInstant, only, page));
        return new FlagsBody(
                found.items().stream().map(SafetyFlagBody::of).toList(),
                found.total(),
                page.offset(),
                page.limit(),
                page.hasMore(found.total(), found.items().size()));
    }

    record ModerationSettingsBody(
            @JsonProperty("alert_categories") @Nullable List<String> alertCategories,
            @JsonProperty("help_text") @Nullable String helpText) {

        static ModerationSettingsBody of(AlertSettings settings) {
            return new ModerationSettingsBody(
                    settings.alertCategories().stream()
                            .map(SafetyCategory::value)
                            .toList(),
                    settings.helpText());
        }
    }

    @GetMapping("/api/v1/settings/moderation")
    @Operation(summary = "Which flags reach the tenant's webhook, and the help text of the caring reply")
    ModerationSettingsBody settings(Tenant tenant) {
        return ModerationSettingsBody.of(alerts.of(tenant.id()));
    }

    @PutMapping("/api/v1/settings/moderation")
    @Operation(
            summary = "Set which flags reach the tenant's webhook, and the help text of the caring reply",
            description = "alert_categories: the categories whose flags are sent as chat.message.flagged (an empty"
                    + " list: none; every flag is listed whatever it holds), among " + CATEGORIES + ". help_text: 1"
                    + " to 2,000 characters shown to a student who may harm themselves (who to talk to, a number to"
                    + " call), or null for the service's own.")
    ModerationSettingsBody setSettings(Tenant tenant, @RequestBody @Nullable ModerationSettingsBody body) {
        if (body == null || body.alertCategories() == null) {
            throw InvalidInput.field(
                    "alert_categories",
                    "is missing",
                    "Send {\"alert_categories\": [\"self_harm\", \"violence\"], \"help_text\": \"...\"}.");
        }
        List<FieldProblem> problems = new ArrayList<>();
        Set<SafetyCategory> categories = EnumSet.noneOf(SafetyCategory.class);
        for (String name : body.alertCategories()) {
            SafetyCategory.of(name == null ? "" : name)
                    .ifPresentOrElse(
                            categories::add,
                            () -> problems.add(new FieldProblem(
                                    "alert_categories", "must hold only " + CATEGORIES + ", held '" + name + "'")));
        }
        String helpText = body.helpText() == null ? null : body.helpText().strip();
        if (helpText != null && (helpText.isEmpty() || helpText.length() > AlertSettings.MAX_HELP_TEXT)) {
            problems.add(new FieldProblem(
                    "help_text", "must be 1 to " + AlertSettings.MAX_HELP_TEXT + " characters, or null"));
        }
        if (!problems.isEmpty()) {
            throw InvalidInput.fields(
                    problems,
                    "Send alert_categories as a list among " + CATEGORIES + ", and help_text as 1 to 2,000 characters"
                            + " or null.");
        }
        return ModerationSettingsBody.of(alerts.set(tenant.id(), new AlertSettings(categories, helpText)));
    }

    private static @Nullable Instant instant(
            String name, @Nullable String value, boolean dayIncluded, List<FieldProblem> problems) {
        if (value == null) {
            return null;
        }
        try {
            if (value.length() == 10) {
                LocalDate day = LocalDate.parse(value);
                return (dayIncluded ? day.plusDays(1) : day)
                        .atStartOfDay(ZoneOffset.UTC)
                        .toInstant();
            }
            return Instant.parse(value);
        } catch (DateTimeParseException e) {
            problems.add(new FieldProblem(name, "must be an instant (2026-12-07T10:00:00Z) or a day (2026-12-07)"));
            return null;
        }
    }
}
