package com.chatreview.moderation;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The module's settings.
 *
 * @param provider who screens students' messages: {@code offline} (the rules in the service's JVM), {@code openai}
 *     (the AI endpoint's {@code /moderations} with the rules) or {@code off} (nothing is screened, nothing flagged);
 *     {@code MODERATION_PROVIDER}
 * @param model the moderation model the {@code openai} provider asks for ({@code MODERATION_MODEL})
 * @param timeout how long a message waits for the endpoint before it is screened offline alone
 *     ({@code MODERATION_TIMEOUT})
 */
@ConfigurationProperties("moderation")
public record ModerationSettings(
        @DefaultValue("offline") String provider,
        @DefaultValue("omni-moderation-latest") String model,
        @DefaultValue("2s") Duration timeout) {

    public ModerationSettings {
        if (!provider.equals("offline") && !provider.equals("openai") && !provider.equals("off")) {
            throw new IllegalArgumentException(
                    "moderation.provider (MODERATION_PROVIDER) is offline, openai or off, not '" + provider + "'");
        }
    }
}
