package com.chatreview.lti.platforms;

import com.chatreview.lti.LtiSettings;
import com.chatreview.lti.keys.PlatformHttp;
import com.chatreview.outbound.Destinations;
import java.time.Clock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.json.JsonMapper;

@Configuration(proxyBeanMethods = false)
class PlatformsConfiguration {

    @Bean
    LtiPlatforms ltiPlatforms(
            Platforms platforms, LtiSettings settings, TransactionTemplate transactions, Clock clock) {
        // a Destinations of the module's own (not a bean: the webhook module has its own policy)
        return new LtiPlatforms(
                platforms, new Destinations(settings.destinationPolicy()), settings, transactions, clock);
    }

    @Bean
    LtiRegistrations ltiRegistrations(
            JdbcClient jdbc,
            TransactionTemplate transactions,
            LtiPlatforms platforms,
            PlatformHttp http,
            LtiSettings settings,
            JsonMapper json,
            Clock clock) {
        return new LtiRegistrations(
                jdbc, transactions, platforms, http, new Destinations(settings.destinationPolicy()), json, clock);
    }
}
