package com.chatreview.conversation.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.chat.ChatId;
import com.chatreview.redis.Redis;
import com.chatreview.redis.RedisReachability;
import com.chatreview.redis.RedisSettings;
import com.chatreview.support.TestRedis;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What every reply queue promises on one node, the single node's and the cluster's alike (they keep their lanes in
 * the same {@link LocalLanes}): a chat's works one at a time in arrival order, chats side by side, busy while any
 * runs or waits, a bound on the waiting, a failed work that does not stop its lane, and an idle wait.
 */
class ReplyQueueContractTests {

    static final Duration LONG = Duration.ofSeconds(10);

    /** What the cluster's queue holds open, closed after each test, last first. */
    final Deque<AutoCloseable> opened = new ArrayDeque<>();

    ReplyQueue queue(String kind) {
        if (kind.equals("in-process")) {
            return new InProcessReplyQueue();
        }
        Redis redis = new Redis(new RedisSettings(TestRedis.url(), Duration.ofSeconds(2)));
        opened.push(redis);
        RedisReachability reachability = new RedisReachability(redis, new SimpleMeterRegistry());
        opened.push(reachability);
        RedisReplyQueue queue = new RedisReplyQueue(redis, reachability, Duration.ofSeconds(5), Duration.ofSeconds(2));
        opened.push(queue);
        return queue;
    }

    @AfterEach
    void close() throws Exception {
        while (!opened.isEmpty()) {
            opened.pop().close();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"in-process", "redis"})
    void aChatsWorksRunOneAtATimeInArrivalOrderWhileAnotherChatRunsBesideThem(String kind) throws Exception {
        ReplyQueue queue = queue(kind);
        ChatId chat = ChatId.random();
        ChatId other = ChatId.random();
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch otherRan = new CountDownLatch(1);
        AtomicInteger running = new AtomicInteger();
        List<Integer> overlaps = new CopyOnWriteArrayList<>();
        List<Integer> order = new CopyOnWriteArrayList<>();
        for (int i = 0; i < 5; i++) {
            int n = i;
            queue.submit(chat, () -> {
                overlaps.add(running.incrementAndGet());
                if (n == 0) {
                    await(release);
                }
                order.add(n);
                running.decrementAndGet();
            });
        }
        queue.submit(other, otherRan::countDown);

        // the other chat's work runs while this chat's first one is held
        assertThat(otherRan.await(LONG.toSeconds(), TimeUnit.SECONDS)).isTrue();
        assertThat(order).isEmpty();
        assertThat(queue.busy(chat)).isTrue();
        release.countDown();

        assertThat(queue.awaitIdle(LONG)).isTrue();
        assertThat(order).containsExactly(0, 1, 2, 3, 4);
        assertThat(overlaps).containsOnly(1);
        assertThat(queue.busy(chat)).isFalse();
        assertThat(queue.busy(other)).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"in-process", "redis"})
    void anOfferIsRefusedWhenTheMostWorksWaitTheRunningOneNotCounted(String kind) throws Exception {
        ReplyQueue queue = queue(kind);
        ChatId chat = ChatId.random();
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger ran = new AtomicInteger();
        assertThat(queue.offer(chat, 2, () -> {
                    started.countDown();
                    await(release);
                    ran.incrementAndGet();
                }))
                .isTrue();
        assertThat(started.await(LONG.toSeconds(), TimeUnit.SECONDS)).isTrue();

        assertThat(queue.offer(chat, 2, ran::incrementAndGet)).isTrue();
        assertThat(queue.offer(chat, 2, ran::incrementAndGet)).isTrue();
        assertThat(queue.offer(chat, 2, ran::incrementAndGet))
                .as("a third waiting")
                .isFalse();
        // the service's own work is never refused
        queue.submit(chat, ran::incrementAndGet);
        release.countDown();

        assertThat(queue.awaitIdle(LONG)).isTrue();
        assertThat(ran).hasValue(4);
    }

    @ParameterizedTest
    @ValueSource(strings = {"in-process", "redis"})
    void aWorkThatFailsDoesNotStopItsLane(String kind) throws Exception {
        ReplyQueue queue = queue(kind);
        ChatId chat = ChatId.random();
        AtomicInteger ran = new AtomicInteger();
        queue.submit(chat, () -> {
            throw new IllegalStateException("a reply failed");
        });
        queue.submit(chat, ran::incrementAndGet);

        assertThat(queue.awaitIdle(LONG)).isTrue();
        assertThat(ran).hasValue(1);
        assertThat(queue.busy(chat)).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"in-process", "redis"})
    void theIdleWaitEndsAtItsTimeoutWhileWorkRuns(String kind) throws Exception {
        ReplyQueue queue = queue(kind);
        ChatId chat = ChatId.random();
        CountDownLatch release = new CountDownLatch(1);
        queue.submit(chat, () -> await(release));

        assertThat(queue.awaitIdle(Duration.ofMillis(200))).isFalse();
        release.countDown();
        assertThat(queue.awaitIdle(LONG)).isTrue();
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(LONG.toSeconds(), TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
