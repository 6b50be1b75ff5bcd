package com.chatreview.moderation;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A tenant's choices (docs/safety.md, Settings): the categories whose flags its webhook is sent
 * ({@code chat.message.flagged}; every flag is listed by {@code GET /api/v1/moderation/flags} whatever they are), and
 * the help text of the caring reply to a student who may harm themselves (null: the service's own).
 */
public record AlertSettings(
        Set<SafetyCategory> alertCategories, @Nullable String helpText) {

    /** The longest help text taken. */
    public static final int MAX_HELP_TEXT = 2_000;

    public AlertSettings {
        alertCategories =
                alertCategories.isEmpty() ? Set.of() : Collections.unmodifiableSet(EnumSet.copyOf(alertCategories));
        if (helpText != null && (helpText.isBlank() || helpText.length() > MAX_HELP_TEXT)) {
            throw new IllegalArgumentException("a help text of 1 to " + MAX_HELP_TEXT + " characters, or none");
        }
    }

    /** Until a tenant chooses: every category alerts, and the service's help text. */
    public static AlertSettings defaults() {
        return new AlertSettings(EnumSet.allOf(SafetyCategory.class), null);
    }

    public boolean alerts(Set<SafetyCategory> categories) {
        return categories.stream().anyMatch(alertCategories::contains);
    }
}
