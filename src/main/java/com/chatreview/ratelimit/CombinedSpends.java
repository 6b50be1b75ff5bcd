package com.chatreview.ratelimit;

import io.lettuce.core.RedisException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * The spends of one quota by concurrent requests, combined: while one script for the quota is on its way to Redis
 * and back, the requests that come meanwhile gather into the next one, sent as soon as the first is answered. A
 * request still waits for at most one round trip besides the one before it; Redis counts a whole batch in one
 * {@code INCRBY}, and each member's place in it decides its answer, so the count stays exact. Measured:
 * a Redis command costs a request more in thread wake-ups than in work ({@code docs/benchmarks.md}, "What Redis
 * costs a REST request"), so the fewer commands per request on a busy quota, the cheaper.
 */
final class CombinedSpends {

    /**
     * Sends one batch: the quota's key and each member's guard and closing mark; answers {spent, window ms, then per
     * member 0 (spent), 1 (its guard is full) or 2 (its mark is set)}.
     */
    interface Sender {
        List<Long> send(String key, List<String> guardsAndMarks);
    }

    private static final class Batch {
        final List<String> guards = new ArrayList<>();
        /** Completed when the batch may go: the one before it was answered. */
        final CompletableFuture<Void> go = new CompletableFuture<>();

        final CompletableFuture<List<Long>> answer = new CompletableFuture<>();
    }

    /** One quota's state: whether a batch is on its way, and the batch gathering meanwhile. */
    private static final class Lane {
        boolean inFlight;

        @Nullable
        Batch next;
    }

    /** A member's share of its batch's answer. */
    record Share(List<Long> answer, int position) {
        /** 0 when one was spent for the member, 1 when its guard was full, 2 when its mark was set. */
        long outcome() {
            return answer.get(2 + position);
        }

        /** The member's rank among the quota's spends of the window: allowed while it is within the quota. */
        long rank() {
            long spentByBatch = 0;
            long before = 0;
            for (int i = 2; i < answer.size(); i++) {
                if (answer.get(i) == 0) {
                    spentByBatch++;
                    if (i - 2 < position) {
                        before++;
                    }
                }
            }
            return answer.get(0) - spentByBatch + before + 1;
        }

        long windowMillis() {
            return answer.get(1);
        }
    }

    private final ConcurrentHashMap<String, Lane> lanes = new ConcurrentHashMap<>();
    private final Sender sender;

    CombinedSpends(Sender sender) {
        this.sender = sender;
    }

    /**
     * Spends one of the quota named {@code key} unless the member's guard is full or its mark is set.
     *
     * @throws RedisException when the batch's script failed
     */
    Share spend(String key, String guard, String mark) {
        Lane lane = lanes.computeIfAbsent(key, k -> new Lane());
        Batch batch;
        int position;
        boolean leads;
        synchronized (lane) {
            if (!lane.inFlight) {
                lane.inFlight = true;
                batch = new Batch();
                batch.go.complete(null);
                leads = true;
            } else if (lane.next == null) {
                batch = lane.next = new Batch();
                leads = true;
            } else {
                batch = lane.next;
                leads = false;
            }
            position = batch.guards.size() / 2;
            batch.guards.add(guard);
            batch.guards.add(mark);
        }
        if (leads) {
            batch.go.join();
            send(key, lane, batch);
        }
        try {
            return new Share(batch.answer.join(), position);
        } catch (CompletionException failed) {
            throw failed.getCause() instanceof RedisException redisFailure
                    ? redisFailure
                    : new RedisException(failed.getCause());
        }
    }

    private void send(String key, Lane lane, Batch batch) {
        List<String> guards;
        synchronized (lane) {
            if (lane.next == batch) {
                lane.next = null; // sealed: later requests gather into a new batch
            }
            guards = List.copyOf(batch.guards);
        }
        try {
            batch.answer.complete(sender.send(key, guards));
        } catch (RuntimeException failed) {
            batch.answer.completeExceptionally(failed);
        } finally {
            Batch waiting;
            synchronized (lane) {
                waiting = lane.next;
                if (waiting == null) {
                    lane.inFlight = false;
                    lanes.remove(key, lane);
                }
            }
            if (waiting != null) {
                waiting.go.complete(null);
            }
        }
    }
}
