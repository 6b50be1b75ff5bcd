package com.chatreview.webhook;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.simple.JdbcClient;

@Configuration(proxyBeanMethods = false)
class WebhookConfiguration {

    @Bean
    Endpoints webhookEndpoints(JdbcClient jdbc) {
        return new Endpoints(jdbc);
    }

    @Bean
    SigningSecrets webhookSigningSecrets(WebhookSettings settings) {
        return new SigningSecrets(settings);
    }

    @Bean
    Destinations webhookDestinations(WebhookSettings settings) {
        return new Destinations(settings);
    }
}
