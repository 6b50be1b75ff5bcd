package com.chatreview.usage;

import com.chatreview.webhook.EventType;
import com.chatreview.webhook.WebhookEvents;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/** The {@code usage.budget_threshold} webhook event, recorded in the transaction of the reply that reached it. */
@Component
class UsageWebhooks {

    private final WebhookEvents webhooks;

    UsageWebhooks(WebhookEvents webhooks) {
        this.webhooks = webhooks;
    }

    @EventListener
    void reached(BudgetThresholdReached reached) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("budget", reached.budget().value());
        data.put("percent", reached.percent());
        data.put("limit", reached.limit());
        data.put("used", reached.used());
        data.put("month", reached.month().toString().substring(0, 7));
        data.put("resets_at", reached.resetsAt());
        webhooks.record(
                reached.tenant(),
                EventType.USAGE_BUDGET_THRESHOLD,
                "usage:" + reached.tenant().value(),
                data);
    }
}
