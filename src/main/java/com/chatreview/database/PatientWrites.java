package com.chatreview.database;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes that wait for the database instead of failing because it is busy: while the pool gives no connection
 * within {@code DATABASE_CONNECTION_TIMEOUT}, the write tries again, and again, until it is done or its patience is
 * spent. Nothing is held while it waits (a try that got no connection got nothing), so a busy node drains its writes
 * in the pool's order instead of dropping them. What a client was already shown (a streamed reply) must not be lost
 * to a moment of load; a request that can still be refused cleanly is better refused than kept waiting for ever, so
 * each caller states its patience.
 */
public final class PatientWrites {

    private static final Logger log = LoggerFactory.getLogger(PatientWrites.class);

    /** How often a write waiting out an outage looks whether the database answers again. */
    private static final Duration OUTAGE_POLL = Duration.ofMillis(100);

    private final BooleanSupplier reachable;
    private final Counter retried;

    /** @param reachable whether the database answers now ({@link DatabaseReachability#reachable()}) */
    public PatientWrites(BooleanSupplier reachable, MeterRegistry meters) {
        this.reachable = reachable;
        this.retried = Counter.builder("database.writes.retried")
                .description("Writes tried again because the pool was busy or the database unreachable")
                .register(meters);
    }

    /** One try of a write. */
    @FunctionalInterface
    public interface Attempt<T> {

        /**
         * @param again whether an earlier try failed: one that failed after its transaction began may have been
         *     committed even so (the connection broke at the commit), which the write looks for first
         */
        T run(boolean again);
    }

    /** What a write waits out before it gives up. */
    public enum Waits {
        /** Only a busy pool: an unreachable database fails the write at once. */
        BUSY_POOL,
        /** A busy pool and an unreachable database alike. */
        BUSY_POOL_AND_OUTAGE
    }

    /**
     * Runs the write until it succeeds, fails for another reason than the database's load (or, per {@code waits},
     * its reachability), or {@code patience} is spent; then the last failure is thrown.
     *
     * @throws WaitInterrupted when the thread is interrupted while the database is unreachable
     */
    public <T> T write(Duration patience, Waits waits, Attempt<T> attempt) {
        return write(patience, waits, () -> {}, attempt);
    }

    /**
     * As {@link #write(Duration, Waits, Attempt)}, and while the database is unreachable {@code stillWanted} runs at
     * every look whether it answers again: it throws when the write is no longer to be done (another node answers
     * the reply now, say), which ends the wait with what it threw. (A try itself checks what it needs with the
     * connection held: a busy pool's retries come one after the other, each within the pool's timeout.)
     */
    public <T> T write(Duration patience, Waits waits, Runnable stillWanted, Attempt<T> attempt) {
        Instant deadline = Instant.now().plus(patience);
        boolean again = false;
        while (true) {
            try {
                return attempt.run(again);
            } catch (RuntimeException failure) {
                boolean busy = DatabaseReachability.poolExhausted(failure);
                boolean outage = !busy && DatabaseReachability.isOutage(failure);
                if (!(busy || (outage && waits == Waits.BUSY_POOL_AND_OUTAGE))
                        || Instant.now().isAfter(deadline)) {
                    throw failure;
                }
                if (!again) {
                    // a busy node has many: the count is the metric's, the detail is for whoever debugs
                    log.debug(
                            "A write waits for the database ({}); it is tried again for at most {}",
                            busy ? "no free connection" : "unreachable",
                            patience);
                }
                retried.increment();
                again = true;
                if (outage) {
                    awaitReachable(deadline, stillWanted, failure);
                }
            }
        }
    }

    /**
     * Sleeps until the database answers its pings again, at least one poll, at most until the deadline, or until the
     * write is no longer wanted.
     */
    private void awaitReachable(Instant deadline, Runnable stillWanted, RuntimeException failure) {
        try {
            do {
                Thread.sleep(OUTAGE_POLL);
                stillWanted.run();
            } while (!reachable.getAsBoolean() && Instant.now().isBefore(deadline));
        } catch (InterruptedException stopping) {
            Thread.currentThread().interrupt();
            throw new WaitInterrupted(failure);
        }
    }

    /** The node is stopping while a write waited for its database: the write is not done. */
    public static final class WaitInterrupted extends RuntimeException {
        WaitInterrupted(RuntimeException lastFailure) {
            super("Interrupted while waiting for the database to answer again", lastFailure);
        }
    }
}
