package com.chatreview.conversation.cluster;

import com.chatreview.chat.ChatId;
import java.time.Duration;
import java.util.ArrayDeque;
import org.jspecify.annotations.Nullable;

/** One lane per chat, on this node alone: a chat's works run in the order they arrived, each as soon as it is first. */
class InProcessReplyQueue implements ReplyQueue {

    private final LocalLanes<Runnable> lanes = new LocalLanes<>(ArrayDeque::new, new LocalLanes.Turns<>() {
        @Override
        public @Nullable Runnable awaitTurn(ChatId chatId, LocalLanes<Runnable> lanes) {
            return lanes.head(chatId);
        }

        @Override
        public void run(ChatId chatId, Runnable work) {
            work.run();
        }
    });

    @Override
    public void submit(ChatId chatId, Runnable work) {
        lanes.add(chatId, work, Integer.MAX_VALUE);
    }

    @Override
    public boolean offer(ChatId chatId, int maxWaiting, Runnable work) {
        return lanes.add(chatId, work, maxWaiting);
    }

    @Override
    public boolean busy(ChatId chatId) {
        return lanes.busy(chatId);
    }

    @Override
    public boolean awaitIdle(Duration timeout) throws InterruptedException {
        return lanes.awaitIdle(timeout);
    }
}
