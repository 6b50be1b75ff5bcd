package com.chatreview.kernel;

import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * {@code offset}, {@code limit} and {@code order} of a list endpoint, checked once for every list: limit
 * 1..100, offset 0 or more, order {@code asc} or {@code desc} (docs/api.md, Conventions). Anything else is 400.
 */
public record PageRequest(int offset, int limit, boolean ascending) {

    public static final int MAX_LIMIT = 100;

    public PageRequest {
        if (offset < 0 || limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("offset " + offset + " or limit " + limit + " out of range");
        }
    }

    /**
     * Reads the raw query values; {@code null} means absent and takes the default.
     *
     * @throws InvalidInput naming every parameter that is wrong
     */
    public static PageRequest parse(
            @Nullable String offset,
            @Nullable String limit,
            @Nullable String order,
            int defaultLimit,
            boolean ascendingByDefault) {
        List<FieldProblem> problems = new ArrayList<>();
        int parsedOffset = parseInt("offset", offset, 0, 0, Integer.MAX_VALUE, problems);
        int parsedLimit = parseInt("limit", limit, defaultLimit, 1, MAX_LIMIT, problems);
        boolean ascending = ascendingByDefault;
        if (order != null) {
            switch (order) {
                case "asc" -> ascending = true;
                case "desc" -> ascending = false;
                default -> problems.add(new FieldProblem("order", "must be 'asc' or 'desc', was '" + order + "'"));
            }
        }
        if (!problems.isEmpty()) {
            throw InvalidInput.fields(
                    problems, "Use offset >= 0, limit from 1 to " + MAX_LIMIT + " and order 'asc' or 'desc'.");
        }
        return new PageRequest(parsedOffset, parsedLimit, ascending);
    }

    private static int parseInt(
            String name, @Nullable String raw, int fallback, int min, int max, List<FieldProblem> problems) {
        if (raw == null) {
            return fallback;
        }
        try {
            int value = Integer.parseInt(raw.trim());
            if (value < min || value > max) {
                problems.add(new FieldProblem(
                        name,
                        "must be between " + min + " and " + (max == Integer.MAX_VALUE ? "2147483647" : max) + ", was "
                                + value));
            }
            return value;
        } catch (NumberFormatException e) {
            problems.add(new FieldProblem(name, "must be an integer, was '" + raw + "'"));
            return fallback;
        }
    }

    /** Whether items remain after this page, given how many there are and how many the page holds. */
    public boolean hasMore(long total, int returned) {
        return offset + (long) returned < total;
    }
}
