package com.chatreview.webhook;

import com.chatreview.outbound.Destinations;
import com.chatreview.outbound.OutboxWorker;
import com.chatreview.sealing.Sealer;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.json.JsonMapper;

@Configuration(proxyBeanMethods = false)
class WebhookConfiguration {

    @Bean
    Endpoints webhookEndpoints(JdbcClient jdbc) {
        return new Endpoints(jdbc);
    }

    @Bean
    SigningSecrets webhookSigningSecrets(Sealer sealer) {
        return new SigningSecrets(sealer);
    }

    @Bean
    Destinations webhookDestinations(WebhookSettings settings) {
        return new Destinations(settings.destinationPolicy());
    }

    @Bean
    Deliveries webhookDeliveries(JdbcClient jdbc) {
        return new Deliveries(jdbc);
    }

    @Bean
    WebhookDeliverer webhookDeliverer(
            Deliveries deliveries,
            Endpoints endpoints,
            SigningSecrets secrets,
            Destinations destinations,
            WebhookSettings settings,
            MeterRegistry meters) {
        return new WebhookDeliverer(deliveries, endpoints, secrets, destinations, settings, meters);
    }

    @Bean
    OutboxWorker<Deliveries.Claimed> webhookWorker(WebhookDeliverer deliverer) {
        return new OutboxWorker<>("webhooks", deliverer, WebhookDeliverer.LIMITS);
    }

    @Bean
    WebhookEvents webhookEvents(
            JdbcClient jdbc,
            JsonMapper json,
            Endpoints endpoints,
            OutboxWorker<Deliveries.Claimed> worker,
            Clock clock) {
        return new WebhookEvents(jdbc, json, endpoints, worker::wake, clock);
    }
}
