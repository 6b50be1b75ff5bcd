package com.chatreview.conversation.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.chat.ChatId;
import com.chatreview.redis.Redis;
import com.chatreview.redis.RedisReachability;
import com.chatreview.redis.RedisSettings;
import com.chatreview.support.Eventually;
import com.chatreview.support.TestRedis;
import com.chatreview.tenancy.TenantId;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Owed replies on a real Redis, with three instances standing for three nodes: a hold renewed is never claimed, a
 * lapsed one is claimed by one node only, and the node that stalled past its lease learns it lost the reply.
 */
class RedisOwedRepliesTests {

    /** A hold of a node that stops renewing lapses after this. */
    static final Duration LEASE = Duration.ofMillis(300);
    /**
     * The lease of a node whose hold must last: renewed every third of it, so a renewal may come up to two thirds
     * late (a loaded machine) before anyone could claim the hold.
     */
    static final Duration RENEWED_LEASE = Duration.ofSeconds(3);

    Redis redis;
    RedisReachability reachability;
    final List<RedisOwedReplies> nodes = new ArrayList<>();
    final OwedReply reply = new OwedReply(
            TenantId.of(UUID.randomUUID()), ChatId.random(), "student-1", UUID.randomUUID(), UUID.randomUUID());

    @BeforeEach
    void connect() {
        String url = TestRedis.url();
        Assumptions.assumeFalse(url.isEmpty(), "no Redis");
        redis = new Redis(new RedisSettings(url, Duration.ofSeconds(2)));
        reachability = new RedisReachability(redis, new SimpleMeterRegistry());
    }

    @AfterEach
    void close() {
        if (redis != null) {
            nodes.forEach(RedisOwedReplies::close);
            reachability.close();
            redis.close();
        }
    }

    RedisOwedReplies node() {
        return node(LEASE);
    }

    RedisOwedReplies node(Duration lease) {
        RedisOwedReplies node = new RedisOwedReplies(redis, reachability, lease);
        nodes.add(node);
        return node;
    }

    /** This test's reply among what the node claimed (the shared Redis may hold others' lapsed replies). */
    List<OwedReply> claimed(RedisOwedReplies node) {
        return node.claimLapsed().stream()
                .filter(claimed -> claimed.questionId().equals(reply.questionId()))
                .toList();
    }

    @Test
    void aRenewedHoldIsNotClaimedAndAPaidOneIsGone() throws InterruptedException {
        RedisOwedReplies answering = node(RENEWED_LEASE);
        RedisOwedReplies other = node();
        answering.owe(reply);

        Thread.sleep(RENEWED_LEASE.plusMillis(500)); // past the hold as first recorded
        assertThat(claimed(other)).as("renewed every third of a lease").isEmpty();

        answering.paid(reply);
        assertThat(due()).isNull();
        // two renewals, which must not put it back (under load there may be fewer: it can only pass wrongly)
        Thread.sleep(RENEWED_LEASE.dividedBy(3).multipliedBy(2).plusMillis(200));
        assertThat(due()).isNull();
        assertThat(claimed(other)).isEmpty();
    }

    @Test
    void aLapsedHoldIsClaimedByOneNodeAndTheStalledNodeStops() throws InterruptedException {
        RedisOwedReplies stalled = node();
        RedisOwedReplies taker = node(RENEWED_LEASE);
        RedisOwedReplies third = node(RENEWED_LEASE);
        stalled.owe(reply);
        stalled.close(); // it stops renewing: dead, or stalled

        assertThat(Eventually.value(Eventually.PATIENCE, () -> {
                    List<OwedReply> claimed = claimed(taker);
                    return claimed.isEmpty() ? null : claimed;
                }))
                .containsExactly(reply);
        assertThat(claimed(third)).as("claimed once").isEmpty();
        assertThat(stalled.takenOver(reply)).isFalse();

        stalled.renew(); // it wakes up
        assertThat(stalled.takenOver(reply)).isTrue();
        stalled.paid(reply);
        assertThat(due()).as("the stalled node's paid did not drop it").isNotNull();
        assertThat(claimed(third)).as("the taker holds it").isEmpty();

        taker.paid(reply);
        assertThat(due()).isNull();
        assertThat(claimed(third)).isEmpty();
    }

    /** When the reply's hold lapses (Redis's clock, ms), or null when there is none. */
    Double due() {
        return redis.commands().zscore("crs:{owed}:due", reply.questionId().toString());
    }

    @Test
    void aHoldRedisLostIsPutBackAtTheNextRenewal() {
        RedisOwedReplies answering = node();
        answering.owe(reply);
        redis.commands().del("crs:{owed}:reply:" + reply.questionId());
        redis.commands().zrem("crs:{owed}:due", reply.questionId().toString());

        answering.renew();

        assertThat(answering.takenOver(reply)).isFalse();
        assertThat(redis.commands().hget("crs:{owed}:reply:" + reply.questionId(), "chat"))
                .isEqualTo(reply.chatId().toString());
        assertThat(redis.commands().zscore("crs:{owed}:due", reply.questionId().toString()))
                .isNotNull();
        answering.paid(reply);
    }

    @Test
    void aStoppingNodeHandsItsRepliesOverAtOnce() {
        Duration longLease = Duration.ofSeconds(30);
        RedisOwedReplies stopping = node(longLease);
        RedisOwedReplies taker = node(longLease);
        stopping.owe(reply);
        assertThat(claimed(taker)).as("held, for a long lease").isEmpty();

        stopping.handOver();

        assertThat(stopping.takenOver(reply))
                .as("the stopping node stops answering it")
                .isTrue();
        assertThat(claimed(stopping)).as("nor claims it back").isEmpty();
        assertThat(claimed(taker)).as("no lease to wait for").containsExactly(reply);
        stopping.paid(reply);
        assertThat(redis.commands().hget("crs:{owed}:reply:" + reply.questionId(), "chat"))
                .as("the taker's now")
                .isEqualTo(reply.chatId().toString());
        taker.paid(reply);
    }
}
