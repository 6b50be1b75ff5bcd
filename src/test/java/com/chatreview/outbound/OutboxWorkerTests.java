package com.chatreview.outbound;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.support.Eventually;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The worker every outbox is sent by: each item claimed is sent, a destination that stalls holds only its own slots,
 * a wake looks at once, and neither a failed claim nor a failed send stops it.
 */
class OutboxWorkerTests {

    private record Item(String id, String destination) {}

    /** An outbox in memory: a claim takes due items out of it, as a lease would hide them from other claims. */
    private static class Recorded implements OutboxWorker.Outbox<Item> {

        final List<Item> pending = new ArrayList<>();
        final List<String> sent = new CopyOnWriteArrayList<>();
        final Map<String, AtomicInteger> underWay = new ConcurrentHashMap<>();
        final Map<String, Integer> mostUnderWay = new ConcurrentHashMap<>();
        final CountDownLatch stalledAnswer = new CountDownLatch(1);
        final AtomicInteger claimsToFail = new AtomicInteger();
        final AtomicInteger idle = new AtomicInteger();

        synchronized void record(String destination, int count) {
            for (int i = 0; i < count; i++) {
                pending.add(new Item(destination + "-" + i, destination));
            }
        }

        @Override
        public synchronized List<Item> claimDue(int limit, Set<String> busy) {
            if (claimsToFail.getAndUpdate(left -> Math.max(0, left - 1)) > 0) {
                throw new IllegalStateException("the database is away for a moment");
            }
            List<Item> claimed = new ArrayList<>();
            for (Item item : List.copyOf(pending)) {
                if (claimed.size() < limit && !busy.contains(item.destination())) {
                    claimed.add(item);
                    pending.remove(item);
                    if (claimed.stream()
                                    .filter(c -> c.destination().equals(item.destination()))
                                    .count()
                            >= 2) {
                        busy = union(busy, item.destination()); // as the claim's SQL would cap one destination
                    }
                }
            }
            return claimed;
        }

        private static Set<String> union(Set<String> busy, String destination) {
            var more = new java.util.HashSet<>(busy);
            more.add(destination);
            return more;
        }

        @Override
        public String destination(Item item) {
            return item.destination();
        }

        @Override
        public void send(Item item) {
            AtomicInteger now = underWay.computeIfAbsent(item.destination(), d -> new AtomicInteger());
            mostUnderWay.merge(item.destination(), now.incrementAndGet(), Math::max);
            try {
                if (item.destination().equals("stalled")) {
                    stalledAnswer.await(30, TimeUnit.SECONDS);
                }
                if (item.destination().equals("broken")) {
                    throw new IllegalStateException("the answer could not be recorded");
                }
                sent.add(item.id());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                now.decrementAndGet();
            }
        }

        @Override
        public void idle() {
            idle.incrementAndGet();
        }
    }

    @Test
    void aDestinationThatStallsHoldsOnlyItsOwnSlotsAndEveryItemIsSentOnce() {
        Recorded outbox = new Recorded();
        outbox.record("stalled", 6);
        outbox.record("a", 10);
        outbox.record("b", 10);
        OutboxWorker<Item> worker =
                new OutboxWorker<>("test-items", outbox, new OutboxWorker.Limits(4, 2, Duration.ofMinutes(1)));
        worker.start();
        try {
            // the second stalled send's thread may start after the other twenty ended (a loaded machine): wait for
            // both stalled sends to be under way, then look that the stall never took a third slot
            Eventually.until(
                    Eventually.PATIENCE,
                    () -> outbox.sent.size() == 20
                            && outbox.underWay
                                            .getOrDefault("stalled", new AtomicInteger())
                                            .get()
                                    == 2);
            assertThat(outbox.mostUnderWay.get("stalled"))
                    .as("the stalled destination's slots")
                    .isEqualTo(2);
            assertThat(outbox.sent).noneMatch(id -> id.startsWith("stalled"));

            outbox.stalledAnswer.countDown();
            Eventually.until(Eventually.PATIENCE, () -> outbox.sent.size() == 26);
        } finally {
            worker.stop();
        }
        assertThat(outbox.sent).doesNotHaveDuplicates();
        assertThat(outbox.idle).as("nothing left: the idle work ran").hasPositiveValue();
    }

    @Test
    void aWakeLooksAtOnceRatherThanAtTheNextPoll() {
        Recorded outbox = new Recorded();
        OutboxWorker<Item> worker =
                new OutboxWorker<>("test-items", outbox, new OutboxWorker.Limits(4, 2, Duration.ofMinutes(10)));
        worker.start();
        try {
            Eventually.until(Eventually.PATIENCE, () -> outbox.idle.get() > 0);
            outbox.record("a", 1);
            worker.wake();
            Eventually.until(Duration.ofSeconds(5), () -> outbox.sent.contains("a-0"));
        } finally {
            worker.stop();
        }
        assertThat(worker.isRunning()).isFalse();
    }

    @Test
    void neitherAFailedClaimNorAFailedSendStopsTheWorker() {
        Recorded outbox = new Recorded();
        outbox.claimsToFail.set(2);
        outbox.record("broken", 1);
        outbox.record("a", 3);
        OutboxWorker<Item> worker =
                new OutboxWorker<>("test-items", outbox, new OutboxWorker.Limits(1, 1, Duration.ofMillis(50)));
        worker.start();
        try {
            Eventually.until(Eventually.PATIENCE, () -> outbox.sent.size() == 3);
            outbox.record("b", 1);
            worker.wake();
            Eventually.until(Eventually.PATIENCE, () -> outbox.sent.contains("b-0"));
        } finally {
            worker.stop();
        }
        assertThat(outbox.claimsToFail).hasValue(0);
        assertThat(outbox.sent).doesNotContain("broken-0");
    }

    @Test
    void limitsThatCannotHoldAreRefused() {
        org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
                .isThrownBy(() -> new OutboxWorker.Limits(2, 3, Duration.ofSeconds(1)));
        org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
                .isThrownBy(() -> new OutboxWorker.Limits(0, 0, Duration.ofSeconds(1)));
    }
}
