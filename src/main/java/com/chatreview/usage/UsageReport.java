package com.chatreview.usage;

import java.time.LocalDate;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * A tenant's AI usage over a range of days, in groups.
 *
 * @param from the first day counted (UTC)
 * @param to the last day counted (UTC), inclusive
 */
public record UsageReport(List<Group> groups, Counts totals, LocalDate from, LocalDate to) {

    /**
     * One group: a day, or the whole range for one user, chat or kind.
     *
     * @param periodStart the day, or the range's first day when grouped by anything else
     */
    public record Group(
            LocalDate periodStart,
            @Nullable String userId,
            @Nullable UUID chatId,
            @Nullable UsageKind kind,
            Counts counts) {}

    public record Counts(long replies, long reviews, long promptTokens, long completionTokens, long totalTokens) {
        public static final Counts NONE = new Counts(0, 0, 0, 0, 0);
    }

    /** How the usage is grouped. */
    public enum GroupBy {
        DAY,
        USER,
        CHAT,
        KIND
    }
}
