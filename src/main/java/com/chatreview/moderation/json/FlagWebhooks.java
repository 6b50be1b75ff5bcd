package com.chatreview.moderation.json;

import com.chatreview.moderation.MessageFlagged;
import com.chatreview.moderation.SchoolAlerts;
import com.chatreview.webhook.EventType;
import com.chatreview.webhook.WebhookEvents;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * {@code chat.message.flagged} (docs/safety.md, Alerts): recorded in the transaction that stored the message and its
 * flag, when the flag holds one of the tenant's alert categories; its data is the flag as the flags endpoint lists it.
 */
@Component
class FlagWebhooks {

    private final WebhookEvents webhooks;
    private final SchoolAlerts alerts;

    FlagWebhooks(WebhookEvents webhooks, SchoolAlerts alerts) {
        this.webhooks = webhooks;
        this.alerts = alerts;
    }

    @EventListener
    void flagged(MessageFlagged flagged) {
        if (!webhooks.wanted(flagged.tenantId(), EventType.CHAT_MESSAGE_FLAGGED)
                || !alerts.of(flagged.tenantId()).alerts(flagged.flag().categories())) {
            return;
        }
        webhooks.record(
                flagged.tenantId(),
                EventType.CHAT_MESSAGE_FLAGGED,
                flagged.flag().chatId().toString(),
                SafetyFlagBody.of(flagged.flag()));
    }
}
