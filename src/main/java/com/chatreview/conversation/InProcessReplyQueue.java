package com.chatreview.conversation;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.Objects;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** One lane per chat: a queue drained by a single virtual thread while it has work. */
class InProcessReplyQueue implements ReplyQueue {

    private static final Logger log = LoggerFactory.getLogger(InProcessReplyQueue.class);

    private final Map<UUID, Queue<Runnable>> lanes = new ConcurrentHashMap<>();
    private final Object idle = new Object();

    @Override
    public void submit(UUID chatId, Runnable work) {
        enqueue(chatId, Integer.MAX_VALUE, work);
    }

    @Override
    public boolean offer(UUID chatId, int maxWaiting, Runnable work) {
        return enqueue(chatId, maxWaiting, work);
    }

    /** The head of a lane is the work running; the rest wait. */
    private boolean enqueue(UUID chatId, int maxWaiting, Runnable work) {
        boolean[] start = {false};
        boolean[] queued = {true};
        lanes.compute(chatId, (chat, queue) -> {
            if (queue == null) {
                queue = new ArrayDeque<>();
                start[0] = true;
            } else if (queue.size() - 1 >= maxWaiting) {
                queued[0] = false;
                return queue;
            }
            queue.add(work);
            return queue;
        });
        if (start[0]) {
            Thread.ofVirtual().name("chat-" + chatId).start(() -> drain(chatId));
        }
        return queued[0];
    }

    /** Runs the lane's work, head first; the head stays in the queue while it runs, so the chat shows busy. */
    private void drain(UUID chatId) {
        // a lane is drained only by the one who created it, and removed only by its drain once empty
        Runnable current = Objects.requireNonNull(lanes.get(chatId)).peek();
        while (current != null) {
            try {
                current.run();
            } catch (RuntimeException e) {
                log.error("A reply of chat {} failed", chatId, e);
            }
            current = next(chatId);
        }
        synchronized (idle) {
            idle.notifyAll();
        }
    }

    /** Drops the finished head and returns the next work; the lane is removed in the same step once empty. */
    private Runnable next(UUID chatId) {
        Runnable[] next = {null};
        lanes.computeIfPresent(chatId, (chat, queue) -> {
            queue.poll();
            next[0] = queue.peek();
            return next[0] == null ? null : queue;
        });
        return next[0];
    }

    @Override
    public boolean busy(UUID chatId) {
        return lanes.containsKey(chatId);
    }

    @Override
    public boolean awaitIdle(Duration timeout) throws InterruptedException {
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
}
