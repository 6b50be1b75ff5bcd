package com.chatreview.moderation;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The module's settings.
 *
 * @param provider who screens students' messages: {@code offline} (the rules in the service's JVM) or {@code off}
 *     (nothing is screened, nothing flagged); {@code MODERATION_PROVIDER}
 */
@ConfigurationProperties("moderation")
public record ModerationSettings(@DefaultValue("offline") String provider) {

    public ModerationSettings {
        if (!provider.equals("offline") && !provider.equals("off")) {
            throw new IllegalArgumentException(
                    "moderation.provider (MODERATION_PROVIDER) is offline or off, not '" + provider + "'");
        }
    }
}
