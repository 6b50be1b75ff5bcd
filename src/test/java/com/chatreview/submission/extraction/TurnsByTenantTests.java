package com.chatreview.submission.extraction;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class TurnsByTenantTests {

    final UUID a = UUID.randomUUID();
    final UUID b = UUID.randomUUID();
    final TurnsByTenant turns = new TurnsByTenant(1);
    final List<String> order = new CopyOnWriteArrayList<>();

    @Test
    void aTenantArrivingBehindAnothersPileHasTheNextTurnButOne() throws Exception {
        turns.acquire(a);
        List<Thread> callers =
                List.of(waitFor(a, "a1"), waitFor(a, "a2"), waitFor(a, "a3"), waitFor(a, "a4"), waitFor(b, "b1"));

        turns.release();
        for (Thread caller : callers) {
            assertThat(caller.join(Duration.ofSeconds(5))).isTrue();
        }

        assertThat(order).containsExactly("a1", "b1", "a2", "a3", "a4");
    }

    @Test
    void aCallerGivingUpWhileWaitingLeavesTheLineAndTakesNoTurnAway() throws Exception {
        turns.acquire(a);
        Thread impatient = waitFor(b, "never");
        Thread patient = waitFor(a, "a1");

        impatient.interrupt();
        assertThat(impatient.join(Duration.ofSeconds(5))).isTrue();
        assertThat(turns.waiting()).isEqualTo(1);
        turns.release();
        assertThat(patient.join(Duration.ofSeconds(5))).isTrue();

        assertThat(order).containsExactly("a1");
        turns.acquire(b);
        turns.release();
    }

    /** A caller of the tenant that takes a turn, notes it and gives it back; returns once it waits. */
    private Thread waitFor(UUID tenant, String name) throws InterruptedException {
        int before = turns.waiting();
        Thread caller = Thread.ofVirtual().start(() -> {
            try {
                turns.acquire(tenant);
            } catch (InterruptedException e) {
                return;
            }
            order.add(name);
            turns.release();
        });
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (turns.waiting() == before && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        assertThat(turns.waiting()).isEqualTo(before + 1);
        return caller;
    }
}
