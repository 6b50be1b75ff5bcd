package com.chatreview.chat.web;

import com.chatreview.chat.ChatManagement;
import com.chatreview.privacy.UserDataEraser;
import com.chatreview.webhook.WebhookEvents;
import java.util.OptionalInt;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The chat module's parts of a user's erasure: the user's chats, each with its messages and the payloads of the
 * webhook deliveries about it in one transaction; and, last of every part, the user itself.
 */
@Configuration(proxyBeanMethods = false)
class ChatDataErasers {

    /** After the submissions (whose review chats go with them). */
    @Bean
    @Order(30)
    UserDataEraser chatsEraser(ChatManagement chats, WebhookEvents webhooks, TransactionTemplate transaction) {
        return (tenantId, userId, tally) -> chats.forEachChatOf(
                tenantId,
                userId,
                chat -> transaction.executeWithoutResult(status -> {
                    webhooks.tombstone(tenantId, chat.id().toString());
                    OptionalInt messages = chats.erase(tenantId, chat.id());
                    if (messages.isPresent()) {
                        tally.erased(1, messages.getAsInt(), 0, 0);
                    }
                }));
    }

    /** Last: fails, and the erasure runs again, while a chat of the user is left (one made while it ran). */
    @Bean
    @Order(Integer.MAX_VALUE)
    UserDataEraser userEraser(ChatManagement chats) {
        return (tenantId, userId, tally) -> chats.forgetUser(tenantId, userId);
    }
}
