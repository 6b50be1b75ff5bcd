package com.chatreview.conversation.cluster;

import com.chatreview.chat.ChatId;
import java.time.Duration;

/**
 * Runs the work of a chat's frames one at a time, in the order they arrived, so that replies of one chat never
 * interleave; different chats run in parallel.
 */
public interface ReplyQueue {

    /** Queues the work however much waits: the service's own (a review, a reply taken over), never refused. */
    void submit(ChatId chatId, Runnable work);

    /**
     * Queues a client's frame unless {@code maxWaiting} works already wait for their turn in the chat (on every
     * node, in a cluster): a client cannot pile up replies nobody may be there to read.
     *
     * @return false when refused: nothing was queued
     */
    boolean offer(ChatId chatId, int maxWaiting, Runnable work);

    /** Whether the chat has work running or waiting. */
    boolean busy(ChatId chatId);

    /** Waits until no chat has work, at most {@code timeout}; true when all is done. */
    boolean awaitIdle(Duration timeout) throws InterruptedException;
}
