package com.chatreview.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.redis.Redis;
import com.chatreview.redis.RedisReachability;
import com.chatreview.redis.RedisSettings;
import com.chatreview.support.TestRedis;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The Redis quotas of two "nodes" (two limiters on two connections) under many concurrent spends: combined into
 * batches, yet exact: never more allowed than the quota, each allowed spend with its own remaining count, and a full
 * guard or a set mark spending nothing.
 */
class RedisRateLimiterTests {

    static final Quota QUOTA = Quota.perMinute(1000);
    static final Quota GUARD = Quota.perMinute(3);

    Redis redis1;
    Redis redis2;
    RedisReachability reachability1;
    RedisReachability reachability2;
    RedisRateLimiter node1;
    RedisRateLimiter node2;
    final String key = "test-rest:" + UUID.randomUUID();

    @BeforeEach
    void connect() {
        String url = TestRedis.url();
        Assumptions.assumeFalse(url.isEmpty(), "no Redis");
        redis1 = new Redis(new RedisSettings(url, Duration.ofSeconds(2)));
        redis2 = new Redis(new RedisSettings(url, Duration.ofSeconds(2)));
        reachability1 = new RedisReachability(redis1, new SimpleMeterRegistry());
        reachability2 = new RedisReachability(redis2, new SimpleMeterRegistry());
        node1 = new RedisRateLimiter(redis1, reachability1, new InProcessRateLimiter());
        node2 = new RedisRateLimiter(redis2, reachability2, new InProcessRateLimiter());
    }

    @AfterEach
    void close() {
        if (redis1 != null) {
            reachability1.close();
            reachability2.close();
            redis1.close();
            redis2.close();
        }
    }

    @Test
    void concurrentSpendsOnTwoNodesAllowExactlyTheQuotaEachWithItsOwnRemainder() throws Exception {
        int threads = 64;
        int attemptsEach = 25; // 1,600 attempts for a quota of 1,000
        ConcurrentLinkedQueue<RateLimitDecision> decisions = new ConcurrentLinkedQueue<>();
        CountDownLatch start = new CountDownLatch(1);
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> running = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                RedisRateLimiter node = t % 2 == 0 ? node1 : node2;
                String guard = "test-guard:" + UUID.randomUUID();
                running.add(pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < attemptsEach; i++) {
                        decisions.add(spent(node.tryConsumeGuarded(guard, GUARD, "no-mark", key, QUOTA)));
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> future : running) {
                future.get();
            }
        }

        List<RateLimitDecision> allowed =
                decisions.stream().filter(RateLimitDecision::allowed).toList();
        assertThat(decisions).hasSize(threads * attemptsEach).doesNotContainNull();
        assertThat(allowed).hasSize(1000);
        assertThat(allowed.stream().map(RateLimitDecision::remaining).distinct())
                .as("each allowed spend has a place of its own")
                .hasSize(1000);
        assertThat(decisions.stream().filter(decision -> !decision.allowed())).allSatisfy(refused -> {
            assertThat(refused.remaining()).isZero();
            assertThat(refused.retryAfter()).isPositive();
        });
    }

    @Test
    void aFullGuardSpendsNothingAndTheOthersInItsBatchDo() {
        String guard = "test-guard:" + UUID.randomUUID();
        for (int i = 0; i < GUARD.requests(); i++) {
            node1.tryConsume(guard, GUARD);
        }

        String mark = "test-mark:" + UUID.randomUUID();
        node1.mark(mark, Duration.ofSeconds(30));

        assertThat(node2.tryConsumeGuarded(guard, GUARD, "no-mark", key, QUOTA))
                .isInstanceOf(RateLimiter.Guarded.GuardEmpty.class);
        assertThat(node2.tryConsumeGuarded("test-guard:" + UUID.randomUUID(), GUARD, mark, key, QUOTA))
                .isInstanceOf(RateLimiter.Guarded.Marked.class);
        assertThat(node2.marked(mark)).isTrue();
        RateLimitDecision other =
                spent(node2.tryConsumeGuarded("test-guard:" + UUID.randomUUID(), GUARD, "no-mark", key, QUOTA));
        assertThat(other.allowed()).isTrue();
        assertThat(other.remaining())
                .as("the blocked and marked requests spent nothing")
                .isEqualTo(999);
    }

    private static RateLimitDecision spent(RateLimiter.Guarded guarded) {
        assertThat(guarded).isInstanceOf(RateLimiter.Guarded.Spent.class);
        return ((RateLimiter.Guarded.Spent) guarded).decision();
    }
}
