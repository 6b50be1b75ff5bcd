package com.chatreview.support;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * The days (UTC) from a moment of a test to the moment of its check. A value the service derives from "today" (a
 * budget's reset, the month of usage) is checked against each of them, so that a run across midnight or a month's end
 * passes when the service is right, and fails when it is wrong on every one of those days.
 */
public record UtcDays(LocalDate first) {

    /** The days from now on. */
    public static UtcDays fromNow() {
        return new UtcDays(LocalDate.now(ZoneOffset.UTC));
    }

    /** Every day from the first to today, oldest first. */
    public List<LocalDate> untilNow() {
        List<LocalDate> days = new ArrayList<>();
        LocalDate today = LocalDate.now(ZoneOffset.UTC);
        for (LocalDate day = first; !day.isAfter(today); day = day.plusDays(1)) {
            days.add(day);
        }
        return days;
    }

    /** The start of the month after each of those days: when a monthly budget set on it resets. */
    public List<Instant> nextMonthStarts() {
        return untilNow().stream()
                .map(day -> day.withDayOfMonth(1)
                        .plusMonths(1)
                        .atStartOfDay(ZoneOffset.UTC)
                        .toInstant())
                .distinct()
                .toList();
    }

    /** The start of the day after each of those days: when a daily cap resets. */
    public List<Instant> nextDayStarts() {
        return untilNow().stream()
                .map(day -> day.plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant())
                .toList();
    }

    /** The months of those days, as {@code 2026-12}. */
    public List<String> months() {
        return untilNow().stream()
                .map(day -> day.toString().substring(0, 7))
                .distinct()
                .toList();
    }
}
