package com.chatreview.lti.keys;

import com.chatreview.lti.LtiSettings;
import com.chatreview.outbound.Destinations;
import com.chatreview.sealing.Sealer;
import java.time.Clock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.json.JsonMapper;

@Configuration(proxyBeanMethods = false)
class KeysConfiguration {

    @Bean
    ToolKeys ltiToolKeys(
            JdbcClient jdbc, TransactionTemplate transactions, Sealer sealer, LtiSettings settings, Clock clock) {
        return new ToolKeys(jdbc, transactions, sealer, settings, clock);
    }

    @Bean(destroyMethod = "close")
    PlatformHttp ltiPlatformHttp(LtiSettings settings) {
        return new PlatformHttp(new Destinations(settings.destinationPolicy()), settings.platformTimeout());
    }

    @Bean
    PlatformKeys ltiPlatformKeys(PlatformHttp http, LtiSettings settings) {
        return new PlatformKeys(http, settings.platformKeysCache(), settings.platformKeysRefreshLimit());
    }

    @Bean
    PlatformTokens ltiPlatformTokens(PlatformHttp http, ToolKeys keys, JsonMapper json, Clock clock) {
        return new PlatformTokens(http, keys, json, clock);
    }
}
