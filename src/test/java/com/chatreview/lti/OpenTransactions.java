package com.chatreview.lti;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The service's transactions seen from the database while something runs: a transaction left open while the service
 * waits on a platform shows as {@code idle in transaction}, for as long as the platform takes.
 */
final class OpenTransactions {

    private OpenTransactions() {}

    /** What the action returned, and the longest a transaction of the database sat idle while it ran. */
    record Watched<T>(T result, Duration longestIdle) {}

    static <T> Watched<T> whileRunning(JdbcClient jdbc, Callable<T> action) throws Exception {
        AtomicLong longest = new AtomicLong();
        CompletableFuture<T> running = CompletableFuture.supplyAsync(
                () -> {
                    try {
                        return action.call();
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                },
                task -> Thread.ofVirtual().start(task)); // the common pool has one thread on two cores
        while (!running.isDone()) {
            long idleMillis = jdbc.sql("""
                            SELECT coalesce(max(extract(epoch FROM now() - xact_start) * 1000), 0)::bigint
                            FROM pg_stat_activity
                            WHERE datname = current_database() AND pid <> pg_backend_pid()
                              AND state = 'idle in transaction'""").query(Long.class).single();
            longest.accumulateAndGet(idleMillis, Math::max);
            Thread.sleep(100);
        }
        return new Watched<>(running.get(), Duration.ofMillis(longest.get()));
    }
}
