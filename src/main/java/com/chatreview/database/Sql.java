package com.chatreview.database;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/** Moving timestamps between Java and {@code timestamptz} columns, one way for every repository. */
public final class Sql {

    private Sql() {}

    /**
     * Now, to the microsecond a {@code timestamptz} column keeps: what a write returns is then equal to what a later
     * read of the same row gives back.
     */
    public static Instant now(Clock clock) {
        return clock.instant().truncatedTo(ChronoUnit.MICROS);
    }

    /** A parameter value for a {@code timestamptz} column. */
    public static @Nullable OffsetDateTime at(@Nullable Instant instant) {
        return instant == null ? null : instant.atOffset(ZoneOffset.UTC);
    }

    /** A {@code timestamptz} column as an instant, {@code null} when the column is. */
    public static @Nullable Instant instant(ResultSet rs, String column) throws SQLException {
        OffsetDateTime value = rs.getObject(column, OffsetDateTime.class);
        return value == null ? null : value.toInstant();
    }

    /** A {@code timestamptz} column declared {@code NOT NULL}, as an instant. */
    public static Instant instantNotNull(ResultSet rs, String column) throws SQLException {
        return Objects.requireNonNull(instant(rs, column), () -> column + " is declared NOT NULL");
    }

    /** A {@code timestamptz} column, by position, as an instant; {@code null} when the column is. */
    public static @Nullable Instant instant(ResultSet rs, int column) throws SQLException {
        OffsetDateTime value = rs.getObject(column, OffsetDateTime.class);
        return value == null ? null : value.toInstant();
    }

    /** A {@code timestamptz} column declared {@code NOT NULL}, by position, as an instant. */
    public static Instant instantNotNull(ResultSet rs, int column) throws SQLException {
        return Objects.requireNonNull(instant(rs, column), () -> "column " + column + " is declared NOT NULL");
    }
}
