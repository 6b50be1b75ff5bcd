package com.chatreview.lti.keys;

import com.chatreview.lti.LtiSettings;
import com.chatreview.outbound.Destinations;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
class KeysConfiguration {

    @Bean(destroyMethod = "close")
    PlatformHttp ltiPlatformHttp(LtiSettings settings) {
        return new PlatformHttp(new Destinations(settings.destinationPolicy()), settings.platformTimeout());
    }

    @Bean
    PlatformKeys ltiPlatformKeys(PlatformHttp http, LtiSettings settings) {
        return new PlatformKeys(http, settings.platformKeysCache(), settings.platformKeysRefreshLimit());
    }
}
