package com.chatreview.webhook;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Webhooks, as the operator allows them (decisions §11).
 *
 * @param allowHttp plain {@code http} URLs are accepted ({@code WEBHOOK_ALLOW_HTTP}); otherwise {@code https} only
 * @param allowPrivateNetworks deliveries may go to loopback, link-local, private and unique-local addresses
 *     ({@code WEBHOOK_ALLOW_PRIVATE_NETWORKS}); otherwise not, checked on the addresses the host resolves to
 * @param secretKey the key (base64 of 16, 24 or 32 bytes) that seals the endpoints' signing secrets in the database
 *     ({@code WEBHOOK_SECRET_KEY}): a dump of the database alone cannot sign. Every node of a cluster needs the same.
 * @param keyFile where a single node keeps a key it made itself when {@code secretKey} is not set
 * @param retryDelays the waits before each attempt after the first ({@code WEBHOOK_RETRY_DELAYS}); each is varied by
 *     ±20 %; after the last, the delivery fails
 */
@ConfigurationProperties("webhook")
public record WebhookSettings(
        @DefaultValue("false") boolean allowHttp,
        @DefaultValue("false") boolean allowPrivateNetworks,
        String secretKey,
        @DefaultValue("./data/webhook-secret.key") Path keyFile,

        @DefaultValue({"5s", "5m", "30m", "2h", "5h", "10h", "10h"})
        List<Duration> retryDelays) {}
