package com.chatreview.conversation.cluster;

import com.chatreview.chat.ChatId;
import java.time.Duration;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This node's lanes: the works of a chat wait in a lane drained by one virtual thread, started when the lane opens
 * and ending when it is empty. The head of a lane is the work running (or waiting for its turn); it stays in the
 * lane until it has run, so that the chat shows busy meanwhile.
 *
 * <p>Both reply queues keep their lanes here: the single node's runs each head at once, the cluster's waits for the
 * head's turn across the nodes first.
 *
 * @param <W> a work as the queue keeps it
 */
final class LocalLanes<W> {

    private static final Logger log = LoggerFactory.getLogger(LocalLanes.class);

    /** How a lane's works take their turn and run. */
    interface Turns<W> {

        /** The work of the chat's lane whose turn it is, waited for; null when the lane has emptied meanwhile. */
        @Nullable
        W awaitTurn(ChatId chatId, LocalLanes<W> lanes);

        /** Runs the work whose turn it is. */
        void run(ChatId chatId, W work);
    }

    private final Map<ChatId, Queue<W>> lanes = new ConcurrentHashMap<>();
    private final Supplier<Queue<W>> newLane;
    private final Turns<W> turns;
    private final Object idle = new Object();

    /** @param newLane an empty lane: its order is the order the works run in */
    LocalLanes(Supplier<Queue<W>> newLane, Turns<W> turns) {
        this.newLane = newLane;
        this.turns = turns;
    }

    /**
     * Adds the work to the chat's lane unless {@code maxWaiting} works wait there already (the head is running, it
     * does not wait); a lane opened by it starts draining.
     *
     * @return false when refused: nothing was added
     */
    boolean add(ChatId chatId, W work, int maxWaiting) {
        boolean[] opened = {false};
        boolean[] added = {true};
        lanes.compute(chatId, (chat, lane) -> {
            if (lane == null) {
                lane = newLane.get();
                opened[0] = true;
            } else if (lane.size() - 1 >= maxWaiting) {
                added[0] = false;
                return lane;
            }
            lane.add(work);
            return lane;
        });
        if (opened[0]) {
            Thread.ofVirtual().name("chat-" + chatId).start(() -> drain(chatId));
        }
        return added[0];
    }

    /** The work first in the chat's lane, or null when the chat has none. */
    @Nullable
    W head(ChatId chatId) {
        @SuppressWarnings("unchecked")
        W[] head = (W[]) new Object[1];
        lanes.computeIfPresent(chatId, (chat, lane) -> {
            head[0] = lane.peek();
            return lane;
        });
        return head[0];
    }

    /** Puts {@code again} in the place the lane's order gives it, instead of {@code before}. */
    void replace(ChatId chatId, W before, W again) {
        lanes.computeIfPresent(chatId, (chat, lane) -> {
            lane.remove(before);
            lane.add(again);
            return lane;
        });
    }

    boolean busy(ChatId chatId) {
        return lanes.containsKey(chatId);
    }

    /** Waits until no lane of this node has work, at most {@code timeout}; true when all is done. */
    boolean awaitIdle(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (idle) {
            while (!lanes.isEmpty()) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                idle.wait(Math.max(1, left / 1_000_000));
            }
        }
        return true;
    }

    private void drain(ChatId chatId) {
        W current = turns.awaitTurn(chatId, this);
        while (current != null) {
            try {
                turns.run(chatId, current);
            } catch (RuntimeException e) {
                log.error("A reply of chat {} failed", chatId, e);
            }
            current = finished(chatId, current) ? turns.awaitTurn(chatId, this) : null;
        }
        synchronized (idle) {
            idle.notifyAll();
        }
    }

    /** Drops the finished work; true when more wait, else the lane is removed in the same step. */
    private boolean finished(ChatId chatId, W work) {
        boolean[] more = {false};
        lanes.computeIfPresent(chatId, (chat, lane) -> {
            lane.remove(work);
            more[0] = !lane.isEmpty();
            return more[0] ? lane : null;
        });
        return more[0];
    }
}
