package com.chatreview.moderation;

import java.util.Collections;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * What screening found in a text: the categories flagged (none: nothing found), the gravest severity among them, and
 * which screener said so ({@code offline}, or the provider's name).
 */
public record Screening(
        Set<SafetyCategory> categories, @Nullable Severity severity, String screenedBy) {

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

    public boolean flagged() {
        return !categories.isEmpty();
    }
}
