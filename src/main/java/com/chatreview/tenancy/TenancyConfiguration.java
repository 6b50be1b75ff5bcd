package com.chatreview.tenancy;

import com.chatreview.redis.ConditionalOnRedis;
import com.chatreview.redis.Redis;
import com.chatreview.redis.RedisReachability;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import tools.jackson.databind.json.JsonMapper;

/** How revocations reach every node: not at all on a single node, through Redis in a cluster. */
@Configuration(proxyBeanMethods = false)
class TenancyConfiguration {

    @Bean
    @ConditionalOnRedis.Absent
    KeyRevocations singleNodeRevocations() {
        return new KeyRevocations.SingleNode();
    }

    @Bean(destroyMethod = "close")
    @ConditionalOnRedis
    RedisKeyRevocations redisKeyRevocations(
            Redis redis,
            RedisReachability reachability,
            JsonMapper json,
            TenancySettings settings,
            ObjectProvider<Tenancy> tenancy) {
        return new RedisKeyRevocations(
                redis,
                reachability,
                json,
                settings.keyCacheTtl(),
                revoked -> tenancy.getObject().revokedElsewhere(revoked));
    }
}
