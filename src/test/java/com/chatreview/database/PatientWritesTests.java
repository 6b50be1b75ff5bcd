package com.chatreview.database;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.chatreview.database.PatientWrites.Waits;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.ConnectException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.jdbc.CannotGetJdbcConnectionException;

class PatientWritesTests {

    final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    final AtomicBoolean reachable = new AtomicBoolean(true);
    final PatientWrites writes = new PatientWrites(reachable::get, meters);
    final List<Boolean> tries = new ArrayList<>();

    @Test
    void aWriteThatFoundNoFreeConnectionIsTriedAgainUntilItIsDone() {
        String written = writes.write(Duration.ofMinutes(1), Waits.BUSY_POOL, again -> {
            tries.add(again);
            if (tries.size() < 3) {
                throw busyPool();
            }
            return "stored";
        });

        assertThat(written).isEqualTo("stored");
        assertThat(tries).containsExactly(false, true, true);
        assertThat(meters.counter("database.writes.retried").count()).isEqualTo(2);
    }

    @Test
    void anyOtherFailureIsThrownAtOnce() {
        assertThatThrownBy(() -> writes.write(Duration.ofMinutes(1), Waits.BUSY_POOL_AND_OUTAGE, again -> {
                    tries.add(again);
                    throw new DataIntegrityViolationException("a wrong statement is wrong every time");
                }))
                .isInstanceOf(DataIntegrityViolationException.class);
        assertThat(tries).hasSize(1);
    }

    @Test
    void anUnreachableDatabaseFailsTheWriteUnlessItIsToBeWaitedOut() {
        reachable.set(false);
        assertThatThrownBy(() -> writes.write(Duration.ofMinutes(1), Waits.BUSY_POOL, again -> {
                    tries.add(again);
                    throw unreachable();
                }))
                .isInstanceOf(CannotGetJdbcConnectionException.class);
        assertThat(tries).hasSize(1);

        String written = writes.write(Duration.ofMinutes(1), Waits.BUSY_POOL_AND_OUTAGE, again -> {
            tries.add(again);
            if (!again) {
                Thread.ofVirtual().start(() -> {
                    sleep(Duration.ofMillis(300));
                    reachable.set(true);
                });
                throw unreachable();
            }
            assertThat(reachable.get())
                    .as("tried again once the database answers")
                    .isTrue();
            return "stored";
        });
        assertThat(written).isEqualTo("stored");
    }

    @Test
    void aWriteNoLongerWantedStopsWaitingOutAnOutage() {
        reachable.set(false);
        AtomicBoolean wanted = new AtomicBoolean(true);
        Thread.ofVirtual().start(() -> {
            sleep(Duration.ofMillis(300));
            wanted.set(false); // another node took the reply over, say
        });
        long started = System.nanoTime();

        assertThatThrownBy(() -> writes.write(
                        Duration.ofMinutes(15),
                        Waits.BUSY_POOL_AND_OUTAGE,
                        () -> {
                            if (!wanted.get()) {
                                throw new IllegalStateException("no longer ours");
                            }
                        },
                        again -> {
                            tries.add(again);
                            throw unreachable();
                        }))
                .hasMessage("no longer ours");
        assertThat(tries).containsExactly(false);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
    }

    @Test
    void theLastFailureIsThrownOnceThePatienceIsSpent() {
        assertThatThrownBy(() -> writes.write(Duration.ofMillis(200), Waits.BUSY_POOL, again -> {
                    sleep(Duration.ofMillis(50)); // as a pool's wait for a connection takes its time
                    throw busyPool();
                }))
                .isInstanceOf(CannotGetJdbcConnectionException.class)
                .satisfies(failure ->
                        assertThat(DatabaseReachability.poolExhausted(failure)).isTrue());
    }

    private static CannotGetJdbcConnectionException busyPool() {
        return new CannotGetJdbcConnectionException(
                "Failed to obtain JDBC Connection",
                new SQLTransientConnectionException(
                        "chat-review - Connection is not available, request timed out after 250ms"));
    }

    private static CannotGetJdbcConnectionException unreachable() {
        return new CannotGetJdbcConnectionException(
                "Failed to obtain JDBC Connection",
                new SQLTransientConnectionException(
                        "the database is unreachable", new ConnectException("Connection refused")));
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
