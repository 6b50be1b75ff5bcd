package com.chatreview.outbound;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * The one way the service sends what it recorded in an outbox table (webhook deliveries, LTI scores), on every
 * node: a loop claims due items through the outbox's own SQL (which leases each to this node on the database's
 * clock, {@code FOR UPDATE SKIP LOCKED}, so that no two nodes send one at once and a node that dies mid-send leaves
 * it to another once the lease ends), and sends each on a virtual thread of its own: at most {@link Limits#inFlight}
 * at once, at most {@link Limits#perDestination} of them to one destination, so that a destination that stalls holds
 * up its own items and no one else's. It looks again when woken (something was recorded, a send ended) and at least
 * every {@link Limits#poll}.
 *
 * <p>What an answer means (delivered, try again later, give up), the back-off and the lease are the outbox's: each
 * speaks its own protocol. A send that throws leaves its item to its lease's end; a claim that throws (the database
 * away for a moment) is tried again at the next poll. Nothing recorded is lost either way.
 *
 * @param <T> a claimed item, as the outbox reads it
 */
public final class OutboxWorker<T> implements SmartLifecycle {

    /** An outbox table and how its items are sent. */
    public interface Outbox<T> {

        /**
         * Claims at most {@code limit} due items, leased to this node, none of them to one of the {@code busy}
         * destinations (those with as many sends under way on this node as one may have). A claim of several items
         * keeps each destination's cap itself (the webhooks' counts every node's sends); one of a single item need
         * not.
         */
        List<T> claimDue(int limit, Set<String> busy);

        /** Where the item goes: a webhook endpoint, a platform. */
        String destination(T item);

        /** Sends the item and records what became of it while this node's claim holds. */
        void send(T item);

        /** Nothing was due: the time to purge what was settled long ago. */
        default void idle() {}
    }

    /**
     * @param inFlight items a node sends at once
     * @param perDestination of these, at most so many to one destination
     * @param poll the longest a due item waits for a look when nothing woke the worker
     */
    public record Limits(int inFlight, int perDestination, Duration poll) {

        public Limits {
            if (inFlight < 1 || perDestination < 1 || perDestination > inFlight) {
                throw new IllegalArgumentException(
                        "in flight " + inFlight + ", per destination " + perDestination + ": 1 <= per <= all");
            }
        }
    }

    private static final Logger log = LoggerFactory.getLogger(OutboxWorker.class);

    private final String name;
    private final Outbox<T> outbox;
    private final Limits limits;
    private final Semaphore sending;
    private final Semaphore wakeUp = new Semaphore(0);
    private final Map<String, Integer> underWay = new ConcurrentHashMap<>();
    private volatile boolean running;
    private volatile @Nullable Thread loop;

    /** @param name what the logs and threads call it ("webhooks", "lti-scores") */
    public OutboxWorker(String name, Outbox<T> outbox, Limits limits) {
        this.name = name;
        this.outbox = outbox;
        this.limits = limits;
        this.sending = new Semaphore(limits.inFlight());
    }

    /** Something was recorded, or a send ended: look now, not at the next poll. */
    public void wake() {
        if (wakeUp.availablePermits() == 0) { // one look covers every wake-up since the last
            wakeUp.release();
        }
    }

    @Override
    public void start() {
        running = true;
        loop = Thread.ofVirtual().name(name).start(this::run);
    }

    @Override
    public void stop() {
        running = false;
        Thread current = loop;
        if (current != null) {
            current.interrupt();
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    private void run() {
        while (running) {
            try {
                int free = sending.availablePermits();
                if (free == 0) {
                    sending.acquire(); // until a send ends: a slow destination holds up its own slots only
                    sending.release();
                    continue;
                }
                List<T> claimed = outbox.claimDue(free, busyDestinations());
                if (claimed.isEmpty()) {
                    outbox.idle();
                    wakeUp.tryAcquire(limits.poll().toMillis(), TimeUnit.MILLISECONDS);
                    wakeUp.drainPermits();
                    continue;
                }
                for (T item : claimed) {
                    // never waits (only this loop takes slots, and it claimed no more than were free), and is not
                    // cut short by a stop: an item claimed is sent, not left to its lease
                    sending.acquireUninterruptibly();
                    send(item);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                if (!running) {
                    return;
                }
                log.warn("Looking for {} to send failed; trying again at the next poll: {}", name, e.toString());
                try {
                    Thread.sleep(limits.poll().toMillis());
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    private void send(T item) {
        String destination;
        try {
            destination = outbox.destination(item);
        } catch (RuntimeException e) {
            sending.release();
            throw e;
        }
        underWay.merge(destination, 1, Integer::sum);
        try {
            Thread.ofVirtual().name(name + "-send").start(() -> {
                try {
                    outbox.send(item);
                } catch (RuntimeException e) {
                    // what became of it was not written: its lease ends and it is sent again
                    log.warn("Sending one of the {} failed, sent again once its lease ends: {}", name, e.toString());
                } finally {
                    sent(destination);
                }
            });
        } catch (RuntimeException | Error e) {
            sent(destination);
            throw e;
        }
    }

    /** A send ended, or never started: its slot is free, and what waited behind its item may be due. */
    private void sent(String destination) {
        underWay.computeIfPresent(destination, (key, sends) -> sends == 1 ? null : sends - 1);
        sending.release();
        wake();
    }

    private Set<String> busyDestinations() {
        return underWay.entrySet().stream()
                .filter(destination -> destination.getValue() >= limits.perDestination())
                .map(Map.Entry::getKey)
                .collect(Collectors.toUnmodifiableSet());
    }
}
