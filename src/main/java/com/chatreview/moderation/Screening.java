package com.chatreview.moderation;

import java.util.Collections;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * What screening found in a text: the categories flagged (none: nothing found), the gravest severity among them,
 * which screener said so ({@code offline}, or the provider's name), and the provider that should have and did not
 * answer ({@code unavailable}: null when none failed).
 */
public record Screening(
        Set<SafetyCategory> categories,
        @Nullable Severity severity,
        String screenedBy,
        @Nullable String unavailable) {

    public Screening(Set<SafetyCategory> categories, @Nullable Severity severity, String screenedBy) {
        this(categories, severity, screenedBy, null);
    }

    public Screening {
        categories = categories.isEmpty() ? Set.of() : Collections.unmodifiableSet(EnumSet.copyOf(categories));
        if (categories.isEmpty() != (severity == null)) {
            throw new IllegalArgumentException("a severity exactly when a category is flagged");
        }
    }

    /** Nothing found. */
    public static Screening clear(String screenedBy) {
        return new Screening(Set.of(), null, screenedBy);
    }

    /** The categories, each at its own severity. */
    public static Screening of(Set<SafetyCategory> categories, String screenedBy) {
        return new Screening(
                categories,
                categories.stream()
                        .map(SafetyCategory::severity)
                        .max(Comparator.naturalOrder())
                        .orElse(null),
                screenedBy);
    }

    /** The same screening, made by the offline screener alone because {@code provider} did not answer. */
    public Screening fellBack(String provider) {
        return new Screening(categories, severity, screenedBy, provider);
    }

    public boolean flagged() {
        return !categories.isEmpty();
    }
}
