package com.chatreview.assistant;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The provider {@code AI_PROVIDER} names. */
@Configuration(proxyBeanMethods = false)
class AssistantConfiguration {

    @Bean
    Assistant assistant(AssistantSettings settings) {
        return switch (settings.provider()) {
            case "offline" -> new OfflineAssistant(settings.offlineTokenDelay());
            default ->
                throw new IllegalStateException(
                        "AI_PROVIDER must be 'offline' or 'openai', not '" + settings.provider() + "'");
        };
    }
}
