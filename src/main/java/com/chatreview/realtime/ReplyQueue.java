package com.chatreview.realtime;

import java.time.Duration;
import java.util.UUID;

/**
 * Runs the work of a chat's frames one at a time, in the order they arrived, so that replies of one chat never
 * interleave; different chats run in parallel.
 */
interface ReplyQueue {

    void submit(UUID chatId, Runnable work);

    /** Whether the chat has work running or waiting. */
    boolean busy(UUID chatId);

    /** Waits until no chat has work, at most {@code timeout}; true when all is done. */
    boolean awaitIdle(Duration timeout) throws InterruptedException;
}
