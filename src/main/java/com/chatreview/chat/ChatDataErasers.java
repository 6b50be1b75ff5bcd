package com.chatreview.chat;

import com.chatreview.privacy.ErasureTally;
import com.chatreview.privacy.ExpiredDataEraser;
import com.chatreview.privacy.Retention;
import com.chatreview.privacy.UserDataEraser;
import com.chatreview.tenancy.TenantId;
import com.chatreview.webhook.WebhookEvents;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.IntConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The chat module's parts of a user's erasure: the user's chats, each with its messages and the payloads of the
 * webhook deliveries about it in one transaction, then their messages in other users' chats; and, last of every
 * part, the user itself. The chats' part also
 * erases the chats past the tenant's retention.
 */
@Configuration(proxyBeanMethods = false)
class ChatDataErasers {

    /** After the submissions (whose review chats go with them). */
    @Bean
    @Order(30)
    ChatsEraser chatsEraser(ChatManagement chats, WebhookEvents webhooks, TransactionTemplate transaction) {
        return new ChatsEraser(chats, webhooks, transaction);
    }

    /**
     * A user's chats, for their erasure; the tenant's chats past its retention, for the daily run. Each chat with its
     * messages and the payloads of the webhook deliveries about it, in one transaction that also counts it.
     */
    static final class ChatsEraser implements UserDataEraser, ExpiredDataEraser {

        private static final Logger log = LoggerFactory.getLogger(ChatsEraser.class);
        private static final int BATCH = 500;

        private final ChatManagement chats;
        private final WebhookEvents webhooks;
        private final TransactionTemplate transaction;

        ChatsEraser(ChatManagement chats, WebhookEvents webhooks, TransactionTemplate transaction) {
            this.chats = chats;
            this.webhooks = webhooks;
            this.transaction = transaction;
        }

        @Override
        public void erase(TenantId tenantId, String userId, ErasureTally tally) {
            chats.forEachChatOf(
                    tenantId,
                    userId,
                    chat -> eraseOne(tenantId, chat.id(), messages -> tally.erased(1, messages, 0, 0)));
            // what they wrote in other users' chats (a teacher in a student's), and the replies to it: emptied where
            // it stands, with its webhook deliveries, a batch per transaction
            int emptied;
            do {
                emptied = Objects.requireNonNull(transaction.execute(status -> {
                    List<ErasedMessage> batch = chats.eraseMessagesElsewhere(tenantId, userId, BATCH);
                    for (ErasedMessage message : batch) {
                        webhooks.tombstone(
                                tenantId,
                                message.chatId().toString(),
                                "message",
                                message.messageId().toString());
                    }
                    tally.erased(0, batch.size(), 0, 0);
                    return batch.size();
                }));
            } while (emptied == BATCH);
        }

        @Override
        public boolean holdsDataOf(TenantId tenantId, String userId) {
            return chats.hasMessagesElsewhere(tenantId, userId);
        }

        @Override
        public int eraseExpired(TenantId tenantId, Retention retention, Instant now) {
            Optional<Instant> cutoff = retention.chatsInactiveBefore(now);
            if (cutoff.isEmpty()) {
                return 0;
            }
            int[] erased = {0};
            chats.forEachChatInactiveBefore(tenantId, cutoff.get(), chat -> {
                try {
                    eraseOne(tenantId, chat.id(), messages -> erased[0]++);
                } catch (ChatErrors.ChatDeletionBlocked held) {
                    log.info(
                            "Retention: chat {} is held open ({}); the next run erases it",
                            chat.id(),
                            held.getMessage());
                }
            });
            return erased[0];
        }

        /**
         * Erases the chat, and tells {@code erased} how many messages went with it, in the same transaction (an
         * erasure counts it there: a crash cannot leave a chat gone but not counted); nothing when it was gone
         * already.
         */
        private void eraseOne(TenantId tenantId, ChatId chatId, IntConsumer erased) {
            transaction.executeWithoutResult(status -> {
                webhooks.tombstone(tenantId, chatId.toString());
                chats.erase(tenantId, chatId).ifPresent(erased);
            });
        }
    }

    /** Last: fails, and the erasure runs again, while a chat of the user is left (one made while it ran). */
    @Bean
    @Order(Integer.MAX_VALUE)
    UserDataEraser userEraser(ChatManagement chats) {
        return (tenantId, userId, tally) -> chats.forgetUser(tenantId, userId);
    }
}
