package com.chatreview.conversation;

import com.chatreview.chat.ChatDeletionGuard;
import com.chatreview.chat.ChatId;
import com.chatreview.conversation.cluster.ReplyQueue;
import java.util.Optional;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;

/**
 * A chat with a reply (or a review) running or waiting in its lane is not deleted (docs/api.md, Chats): the reply
 * would be stored into nothing. Asked after the open connections, which say more to the one deleting.
 */
@Component
@Order(2)
class ReplyInProgressGuard implements ChatDeletionGuard {

    private final ReplyQueue queue;

    ReplyInProgressGuard(ReplyQueue queue) {
        this.queue = queue;
    }

    @Override
    public Optional<String> blockingReason(ChatId chatId) {
        if (queue.busy(chatId)) {
            return Optional.of("a reply is being generated");
        }
        return Optional.empty();
    }
}
