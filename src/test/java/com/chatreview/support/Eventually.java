package com.chatreview.support;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Waits for what happens in the background by asking again, every {@link #EVERY}, up to a deadline, instead of
 * sleeping a guessed time and asserting once: under load a sleep is too short, and when all is well the wait ends
 * at the first answer. The deadline is only a bound on a hung test, so it is generous.
 */
public final class Eventually {

    public static final Duration PATIENCE = Duration.ofSeconds(20);
    static final Duration EVERY = Duration.ofMillis(50);

    /** An assertion block that may throw anything; a failure is an {@link AssertionError}. */
    @FunctionalInterface
    public interface Check {
        void run() throws Exception;
    }

    private Eventually() {}

    /** The first answer of {@code probe} that is not null; an {@link AssertionError} when none comes in time. */
    public static <T> T value(Duration patience, Supplier<T> probe) {
        long deadline = System.nanoTime() + patience.toNanos();
        while (true) {
            T answer = probe.get();
            if (answer != null) {
                return answer;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("Nothing within " + patience);
            }
            pause();
        }
    }

    public static void until(Duration patience, BooleanSupplier condition) {
        value(patience, () -> condition.getAsBoolean() ? Boolean.TRUE : null);
    }

    /** Runs {@code check} until it passes; when it still fails at the deadline, its last failure is thrown. */
    public static void passes(Duration patience, Check check) throws Exception {
        long deadline = System.nanoTime() + patience.toNanos();
        while (true) {
            try {
                check.run();
                return;
            } catch (AssertionError failed) {
                if (System.nanoTime() - deadline > 0) {
                    failed.addSuppressed(new AssertionError("Still failing after " + patience));
                    throw failed;
                }
            }
            pause();
        }
    }

    private static void pause() {
        try {
            Thread.sleep(EVERY);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
