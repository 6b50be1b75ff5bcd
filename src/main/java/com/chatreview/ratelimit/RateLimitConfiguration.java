package com.chatreview.ratelimit;

import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
class RateLimitConfiguration {

    @Bean
    @ConditionalOnMissingBean(RateLimiter.class)
    RateLimiter inProcessRateLimiter() {
        return new InProcessRateLimiter();
    }
}
