package com.chatreview.conversation;

import com.chatreview.conversation.cluster.OwedReply;
import com.chatreview.conversation.cluster.RedisOwedReplies;
import com.chatreview.conversation.cluster.ReplyQueue;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Looks every third of a lease for replies whose node stopped renewing its hold (it died) and answers them here,
 * each in its chat's lane: a dead node's reply is answered again within a lease and a third of its last renewal.
 */
public final class ReplyTakeovers implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ReplyTakeovers.class);

    private final RedisOwedReplies owed;
    private final ReplyQueue queue;
    private final Replies replies;
    private final ScheduledExecutorService sweeper = Executors.newSingleThreadScheduledExecutor(
            Thread.ofVirtual().name("reply-takeovers").factory());

    ReplyTakeovers(RedisOwedReplies owed, ReplyQueue queue, Replies replies, Duration lease) {
        this.owed = owed;
        this.queue = queue;
        this.replies = replies;
        long every = Math.max(1, lease.toMillis() / 3);
        sweeper.scheduleWithFixedDelay(this::takeOverLapsed, every, every, TimeUnit.MILLISECONDS);
    }

    void takeOverLapsed() {
        try {
            claimAndSubmit();
        } catch (RuntimeException e) {
            log.error("Looking for replies to take over failed", e); // the next sweep tries again
        }
    }

    private void claimAndSubmit() {
        for (OwedReply reply : owed.claimLapsed()) {
            log.info(
                    "Taking over the reply to question {} in chat {}: its node stopped renewing it",
                    reply.questionId(),
                    reply.chatId());
            try {
                queue.submit(reply.chatId(), () -> replies.takeOver(reply));
            } catch (RuntimeException e) {
                log.warn(
                        "The reply in chat {} could not join its lane; it lapses again: {}",
                        reply.chatId(),
                        e.toString());
                owed.letGo(reply);
            }
        }
    }

    @Override
    public void close() {
        sweeper.shutdownNow();
    }
}
