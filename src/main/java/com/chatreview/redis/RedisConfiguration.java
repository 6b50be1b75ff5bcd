package com.chatreview.redis;

import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The connection to Redis, when {@code REDIS_URL} is set; it must answer for the node to start. */
@Configuration(proxyBeanMethods = false)
class RedisConfiguration {

    @Bean(destroyMethod = "close")
    @ConditionalOnRedis
    Redis redis(RedisSettings settings) {
        Redis redis = new Redis(settings);
        redis.commands().ping();
        return redis;
    }

    /** Named for the health component it shows: {@code redis}. */
    @Bean(name = "redisHealthIndicator", destroyMethod = "close")
    @ConditionalOnRedis
    RedisReachability redisReachability(Redis redis, MeterRegistry meters) {
        return new RedisReachability(redis, meters);
    }
}
