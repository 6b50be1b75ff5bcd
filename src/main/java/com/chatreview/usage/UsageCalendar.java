package com.chatreview.usage;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;

/** Budgets count by calendar month and by day, both in UTC. */
final class UsageCalendar {

    private UsageCalendar() {}

    static LocalDate day(Instant at) {
        return LocalDate.ofInstant(at, ZoneOffset.UTC);
    }

    static LocalDate month(Instant at) {
        return day(at).withDayOfMonth(1);
    }

    /** When the month holding {@code at} ends: the monthly budgets start again. */
    static Instant monthEnds(Instant at) {
        return month(at).plusMonths(1).atStartOfDay(ZoneOffset.UTC).toInstant();
    }

    /** When the day holding {@code at} ends: the per-user daily caps start again. */
    static Instant dayEnds(Instant at) {
        return day(at).plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant();
    }
}
