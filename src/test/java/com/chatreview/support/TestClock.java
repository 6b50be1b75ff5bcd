package com.chatreview.support;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * The shared test service's clock ({@link SharedTestConfiguration}): the system's time in UTC, until a test moves it
 * to see what a later day or month does (a budget that starts again, say). Closing what {@link #moveTo} returns puts
 * it back. The test JVM runs one test class at a time, so a moved clock is seen by that test alone.
 */
public final class TestClock extends Clock {

    private volatile Duration offset = Duration.ZERO;

    /** The clock reads {@code at} now, and runs on from there, until the returned move is closed. */
    public Move moveTo(Instant at) {
        offset = Duration.between(Instant.now(), at);
        return () -> offset = Duration.ZERO;
    }

    /** A moved clock; closing it puts the clock back to the system's time. */
    public interface Move extends AutoCloseable {
        @Override
        void close();
    }

    @Override
    public Instant instant() {
        return Instant.now().plus(offset);
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        if (!zone.equals(ZoneOffset.UTC)) {
            throw new UnsupportedOperationException("the service's clock is in UTC");
        }
        return this;
    }
}
