package com.chatreview.chat.json;

import com.chatreview.chat.ChatChanged;
import com.chatreview.chat.json.ChatBodies.MessageBody;
import com.chatreview.webhook.EventType;
import com.chatreview.webhook.WebhookEvents;
import com.fasterxml.jackson.annotation.JsonProperty;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * The chat events of webhooks (docs/api.md, Webhooks), recorded in the transaction of the change, with the chat's REST
 * shapes: {@code chat.message.created} {@code {"chat_id", "message"}}, {@code chat.deleted} {@code {"chat_id"}}.
 */
@Component
class ChatWebhooks {

    private final WebhookEvents webhooks;

    ChatWebhooks(WebhookEvents webhooks) {
        this.webhooks = webhooks;
    }

    record MessageCreated(@JsonProperty("chat_id") String chatId, MessageBody message) {}

    record ChatDeleted(@JsonProperty("chat_id") String chatId) {}

    @EventListener
    void messageStored(ChatChanged.MessageStored stored) {
        webhooks.record(
                stored.tenantId(),
                EventType.CHAT_MESSAGE_CREATED,
                stored.chatId().toString(),
                new MessageCreated(stored.chatId().toString(), MessageBody.of(stored.message())));
    }

    @EventListener
    void deleted(ChatChanged.Deleted deleted) {
        webhooks.record(
                deleted.tenantId(),
                EventType.CHAT_DELETED,
                deleted.chatId().toString(),
                new ChatDeleted(deleted.chatId().toString()));
    }
}
