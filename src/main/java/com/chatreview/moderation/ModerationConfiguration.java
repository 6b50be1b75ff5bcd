package com.chatreview.moderation;

import com.chatreview.assistant.AssistantSettings;
import com.chatreview.metrics.TenantTags;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.json.JsonMapper;

@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(ModerationSettings.class)
class ModerationConfiguration {

    @Bean
    SafetyScreener safetyScreener(ModerationSettings settings, AssistantSettings assistant, JsonMapper json) {
        return switch (settings.provider()) {
            case "off" -> text -> Screening.clear("off");
            case "openai" -> {
                if (assistant.baseUrl() == null || assistant.baseUrl().isBlank()) {
                    throw new IllegalStateException(
                            "MODERATION_PROVIDER=openai needs AI_BASE_URL: the endpoint whose /moderations screens");
                }
                yield new OpenAiScreener(
                        OfflineScreener.standard(),
                        assistant.baseUrl(),
                        assistant.apiKey(),
                        settings.model(),
                        settings.timeout(),
                        json);
            }
            default -> OfflineScreener.standard();
        };
    }

    @Bean
    SafetyFlags safetyFlags(
            JdbcClient jdbc, Clock clock, ApplicationEventPublisher events, MeterRegistry meters, TenantTags tenants) {
        return new SafetyFlags(jdbc, clock, events, meters, tenants);
    }

    @Bean
    SafetyPolicy safetyPolicy(JsonMapper json) {
        return new SafetyPolicy(json);
    }

    @Bean
    SchoolAlerts schoolAlerts(JdbcClient jdbc, Clock clock) {
        return new SchoolAlerts(jdbc, clock);
    }
}
