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
 * @param timeout how long an attempt waits for the receiver's answer ({@code WEBHOOK_TIMEOUT}), 1 s to 60 s; connecting
 *     may take at most 5 s of it, and a node's claim on an attempt lasts twice the two: another node makes an
 *     attempt whose node died only once it could no longer be under way
 */
@ConfigurationProperties("webhook")
public record WebhookSettings(
        @DefaultValue("false") boolean allowHttp,
        @DefaultValue("false") boolean allowPrivateNetworks,

        @DefaultValue({"5s", "5m", "30m", "2h", "5h", "10h", "10h"})
        List<Duration> retryDelays,

        @DefaultValue("10s") Duration timeout) {

    private static final Duration LONGEST_CONNECT = Duration.ofSeconds(5);

    public WebhookSettings {
        if (timeout.compareTo(Duration.ofSeconds(1)) < 0 || timeout.compareTo(Duration.ofSeconds(60)) > 0) {
            throw new IllegalArgumentException("WEBHOOK_TIMEOUT must be 1s to 60s, not " + timeout);
        }
    }

    /** How long an attempt may take to connect to the receiver: part of {@link #timeout}, at most 5 s. */
    public Duration connectTimeout() {
        return timeout.compareTo(LONGEST_CONNECT) < 0 ? timeout : LONGEST_CONNECT;
    }

    /** How long a node's claim on an attempt lasts: twice the longest attempt (30 s by default). */
    public Duration claimLease() {
        return timeout.plus(connectTimeout()).multipliedBy(2);
    }

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
