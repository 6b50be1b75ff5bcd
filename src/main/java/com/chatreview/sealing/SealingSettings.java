package com.chatreview.sealing;

import java.nio.file.Path;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The operator's sealing key.
 *
 * @param key base64 of 16, 24 or 32 bytes ({@code SEALING_KEY}, or its former name {@code WEBHOOK_SECRET_KEY}); every
 *     node of a cluster needs the same
 * @param keyFile where a single node keeps the key it made itself when {@code key} is not set (created 0600)
 */
@ConfigurationProperties("sealing")
public record SealingSettings(
        @Nullable String key,
        @DefaultValue("./data/webhook-secret.key") Path keyFile) {}
