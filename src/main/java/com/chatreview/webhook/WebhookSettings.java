package com.chatreview.webhook;

import com.chatreview.outbound.Destinations;
import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Webhooks, as the operator allows them (docs/api.md, Webhooks).
 *
 * @param allowHttp plain {@code http} URLs are accepted ({@code WEBHOOK_ALLOW_HTTP}); otherwise {@code https} only
 * @param allowPrivateNetworks deliveries may go to addresses that are not globally reachable
 *     ({@code WEBHOOK_ALLOW_PRIVATE_NETWORKS}); otherwise not, checked on the addresses the host resolves to
 * @param retryDelays the waits before each attempt after the first ({@code WEBHOOK_RETRY_DELAYS}); each is varied by
 *     ±20 %; after the last, the delivery fails
 */
@ConfigurationProperties("webhook")
public record WebhookSettings(
        @DefaultValue("false") boolean allowHttp,
        @DefaultValue("false") boolean allowPrivateNetworks,

        @DefaultValue({"5s", "5m", "30m", "2h", "5h", "10h", "10h"})
        List<Duration> retryDelays) {

    /** Where deliveries may go, as these settings allow. */
    public Destinations.Policy destinationPolicy() {
        return new Destinations.Policy(
                allowHttp,
                allowPrivateNetworks,
                "WEBHOOK_ALLOW_HTTP",
                "WEBHOOK_ALLOW_PRIVATE_NETWORKS",
                "https://lms.example.org/hooks");
    }
}
