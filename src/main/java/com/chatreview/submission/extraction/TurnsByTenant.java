package com.chatreview.submission.extraction;

import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A fixed number of turns (the parser processes) handed out round-robin by tenant: when a turn comes free, it goes
 * to the tenant that has waited longest since its last turn, and that tenant's next caller waits behind the other
 * tenants already waiting. So one tenant's pile of documents holds up another's for at most one parse per waiting
 * tenant, never for the whole pile; within a tenant, callers go in the order they came.
 */
final class TurnsByTenant {

    private final ReentrantLock lock = new ReentrantLock();
    /** Waiting callers by tenant; the tenants in the order their turn comes. */
    private final LinkedHashMap<UUID, ArrayDeque<Waiter>> waiting = new LinkedHashMap<>();

    private int free;

    TurnsByTenant(int turns) {
        if (turns < 1) {
            throw new IllegalArgumentException("at least one turn, got " + turns);
        }
        this.free = turns;
    }

    /** Waits for a turn for the tenant; {@link #release} gives it back. */
    void acquire(UUID tenant) throws InterruptedException {
        lock.lock();
        try {
            if (free > 0 && waiting.isEmpty()) {
                free--;
                return;
            }
            Waiter waiter = new Waiter(lock.newCondition());
            waiting.computeIfAbsent(tenant, any -> new ArrayDeque<>()).addLast(waiter);
            try {
                while (!waiter.granted) {
                    waiter.turn.await();
                }
            } catch (InterruptedException e) {
                if (waiter.granted) {
                    handOn();
                } else {
                    remove(tenant, waiter);
                }
                throw e;
            }
        } finally {
            lock.unlock();
        }
    }

    void release() {
        lock.lock();
        try {
            handOn();
        } finally {
            lock.unlock();
        }
    }

    /** Callers waiting for a turn (a test's view). */
    int waiting() {
        lock.lock();
        try {
            return waiting.values().stream().mapToInt(ArrayDeque::size).sum();
        } finally {
            lock.unlock();
        }
    }

    /** The turn given back goes to the first caller of the tenant first in line, who then goes to the back. */
    private void handOn() {
        Iterator<Map.Entry<UUID, ArrayDeque<Waiter>>> tenants =
                waiting.entrySet().iterator();
        if (!tenants.hasNext()) {
            free++;
            return;
        }
        Map.Entry<UUID, ArrayDeque<Waiter>> first = tenants.next();
        Waiter next = first.getValue().removeFirst();
        tenants.remove();
        if (!first.getValue().isEmpty()) {
            waiting.put(first.getKey(), first.getValue());
        }
        next.granted = true;
        next.turn.signal();
    }

    private void remove(UUID tenant, Waiter waiter) {
        // a waiter not yet granted is still in its tenant's line, which therefore still exists
        ArrayDeque<Waiter> callers = Objects.requireNonNull(waiting.get(tenant), "the waiter's line");
        callers.remove(waiter);
        if (callers.isEmpty()) {
            waiting.remove(tenant);
        }
    }

    private static final class Waiter {
        final Condition turn;
        boolean granted;

        Waiter(Condition turn) {
            this.turn = turn;
        }
    }
}
