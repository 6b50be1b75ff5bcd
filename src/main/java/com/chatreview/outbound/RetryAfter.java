package com.chatreview.outbound;

import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * The wait a receiver asks for in its {@code Retry-After} header: whole seconds, at most {@link #LONGEST} (a receiver
 * cannot park an item for days); an HTTP date, a negative number or anything else is taken as no wait asked for.
 */
public final class RetryAfter {

    public static final Duration LONGEST = Duration.ofHours(1);

    private RetryAfter() {}

    public static Duration of(@Nullable String value) {
        if (value == null) {
            return Duration.ZERO;
        }
        try {
            return Duration.ofSeconds(Math.min(LONGEST.toSeconds(), Math.max(0, Long.parseLong(value.strip()))));
        } catch (NumberFormatException e) {
            return Duration.ZERO;
        }
    }
}
