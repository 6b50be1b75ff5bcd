package com.chatreview.assistant;

import com.chatreview.grading.ProseMeaning;
import com.chatreview.meaning.SentenceModel;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The provider {@code AI_PROVIDER} names. A provider that is not configured well enough to answer stops the
 * start-up with a message naming the missing variable, rather than failing the first chat.
 */
@Configuration(proxyBeanMethods = false)
class AssistantConfiguration {

    @Bean
    Assistant assistant(
            AssistantSettings settings,
            ObjectProvider<MeterRegistry> meters,
            ObjectProvider<SentenceModel> sentenceModel) {
        return switch (settings.provider()) {
            // the service always has its sentence model; a module test that starts without the meaning module
            // grades written answers as the service does where no model runs
            case "offline" ->
                new OfflineAssistant(
                        settings.offlineTokenDelay(),
                        sentenceModel.stream()
                                .findFirst()
                                .map(OfflineAssistant::proseMeaning)
                                .orElse(ProseMeaning.NONE));
            case OpenAiAssistant.PROVIDER ->
                new OpenAiAssistant(settings, meters.getIfAvailable(SimpleMeterRegistry::new));
            default ->
                throw new IllegalStateException(
                        "AI_PROVIDER must be 'offline' or 'openai', not '" + settings.provider() + "'");
        };
    }
}
