package com.chatreview.ratelimit;

import com.chatreview.redis.ConditionalOnRedis;
import com.chatreview.redis.Redis;
import com.chatreview.redis.RedisReachability;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
class RateLimitConfiguration {

    @Bean
    @ConditionalOnRedis.Absent
    RateLimiter inProcessRateLimiter() {
        return new InProcessRateLimiter();
    }

    @Bean
    @ConditionalOnRedis
    RateLimiter redisRateLimiter(Redis redis, RedisReachability reachability) {
        return new RedisRateLimiter(redis, reachability, new InProcessRateLimiter());
    }
}
