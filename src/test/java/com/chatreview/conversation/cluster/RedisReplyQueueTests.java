package com.chatreview.conversation.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.chat.ChatId;
import com.chatreview.redis.Redis;
import com.chatreview.redis.RedisReachability;
import com.chatreview.redis.RedisSettings;
import com.chatreview.support.TestRedis;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The cluster's reply lanes on a real Redis, with two queues standing for two nodes: one frame at a time per chat in
 * ticket order across both, and a node that dies holding a turn, or never comes to take it, blocks the chat only
 * for its lease or grace.
 */
class RedisReplyQueueTests {

    static final Duration LEASE = Duration.ofMillis(600);
    static final Duration GRACE = Duration.ofMillis(400);

    Redis redis;
    RedisReachability reachability;
    RedisReplyQueue node1;
    RedisReplyQueue node2;
    final ChatId chatId = ChatId.random();

    @BeforeEach
    void connect() {
        String url = TestRedis.url();
        Assumptions.assumeFalse(url.isEmpty(), "no Redis");
        redis = new Redis(new RedisSettings(url, Duration.ofSeconds(2)));
        reachability = new RedisReachability(redis, new SimpleMeterRegistry());
        node1 = new RedisReplyQueue(redis, reachability, LEASE, GRACE);
        node2 = new RedisReplyQueue(redis, reachability, LEASE, GRACE);
    }

    @AfterEach
    void close() {
        if (redis != null) {
            node1.close();
            node2.close();
            reachability.close();
            redis.close();
        }
    }

    @Test
    void framesOnTwoNodesRunOneAtATimeInTicketOrder() throws Exception {
        AtomicInteger running = new AtomicInteger();
        List<Integer> overlaps = new CopyOnWriteArrayList<>();
        List<String> ran = new CopyOnWriteArrayList<>();
        List<CompletableFuture<Void>> done = new ArrayList<>();
        List<String> submitted = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            RedisReplyQueue node = i % 2 == 0 ? node1 : node2;
            String name = "frame " + i;
            CompletableFuture<Void> finished = new CompletableFuture<>();
            done.add(finished);
            submitted.add(name);
            node.submit(chatId, () -> {
                overlaps.add(running.incrementAndGet());
                sleep(20);
                ran.add(name);
                running.decrementAndGet();
                finished.complete(null);
            });
        }
        CompletableFuture.allOf(done.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);

        assertThat(ran).isEqualTo(submitted);
        assertThat(overlaps).allMatch(count -> count == 1);
        // the last work's turn is handed on just after it completed
        for (int i = 0; i < 100 && (node1.busy(chatId) || node2.busy(chatId)); i++) {
            sleep(20);
        }
        assertThat(node1.busy(chatId)).isFalse();
        assertThat(node2.busy(chatId)).isFalse();
    }

    @Test
    void aNodeThatDiesHoldingTheTurnBlocksTheChatOnlyForItsLease() throws Exception {
        CompletableFuture<Void> dyingStarted = new CompletableFuture<>();
        CompletableFuture<Void> dying = new CompletableFuture<>();
        node1.submit(chatId, () -> {
            dyingStarted.complete(null);
            dying.join(); // never finishes while the test runs: the node "died" holding the turn
        });
        dyingStarted.get(10, TimeUnit.SECONDS);
        node1.close(); // no more renewals, as when the node's process is gone

        CompletableFuture<Long> answered = new CompletableFuture<>();
        long submittedAt = System.nanoTime();
        node2.submit(chatId, () -> answered.complete(System.nanoTime()));

        long waitedMillis = (answered.get(10, TimeUnit.SECONDS) - submittedAt) / 1_000_000;
        assertThat(waitedMillis).as("waited for the dead node's lease").isGreaterThanOrEqualTo(LEASE.toMillis() / 2);
        dying.complete(null);
    }

    @Test
    void aTicketWhoseNodeNeverComesIsPassedOverAfterTheGrace() throws Exception {
        // another node took a ticket and died before its turn came
        String[] keys = {
            "crs:chat:{" + chatId + "}:lane:tickets",
            "crs:chat:{" + chatId + "}:lane:serving",
            "crs:chat:{" + chatId + "}:lane:lease"
        };
        redis.commands().set(keys[0], "1");
        redis.commands().set(keys[1], "1");
        redis.commands().psetex(keys[2], GRACE.toMillis(), "pending:1");

        CompletableFuture<Void> answered = new CompletableFuture<>();
        node2.submit(chatId, () -> answered.complete(null));

        answered.get(10, TimeUnit.SECONDS);
        // the turn is handed on just after the work: ticket 3's turn, nobody's yet
        for (int i = 0; i < 100 && !"3".equals(redis.commands().get(keys[1])); i++) {
            sleep(20);
        }
        assertThat(redis.commands().get(keys[1])).isEqualTo("3");
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void atMostSoManyFramesOfAChatWaitAcrossTheNodes() throws Exception {
        CompletableFuture<Void> release = new CompletableFuture<>();
        CompletableFuture<Void> running = new CompletableFuture<>();
        assertThat(node1.offer(chatId, 2, () -> {
                    running.complete(null);
                    release.join();
                }))
                .isTrue();
        running.get(10, TimeUnit.SECONDS);

        assertThat(node2.offer(chatId, 2, () -> {})).as("the first to wait").isTrue();
        assertThat(node1.offer(chatId, 2, () -> {})).as("the second to wait").isTrue();
        assertThat(node2.offer(chatId, 2, () -> {})).as("a third may not wait").isFalse();
        CompletableFuture<Void> own = new CompletableFuture<>();
        node2.submit(chatId, () -> own.complete(null)); // the service's own work is never refused

        release.complete(null);
        own.get(10, TimeUnit.SECONDS);
        assertThat(node1.offer(chatId, 2, () -> {}))
                .as("room again once the lane drained")
                .isTrue();
    }
}
