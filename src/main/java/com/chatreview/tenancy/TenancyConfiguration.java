package com.chatreview.tenancy;

import com.chatreview.ratelimit.RequestQuotas;
import com.chatreview.redis.ConditionalOnRedis;
import com.chatreview.redis.Redis;
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
            RequestQuotas quotas,
            JsonMapper json,
            TenancySettings settings,
            ObjectProvider<Tenancy> tenancy) {
        return new RedisKeyRevocations(
                redis,
                quotas,
                json,
                settings.keyCacheTtl(),
                revoked -> tenancy.getObject().revokedElsewhere(revoked));
    }
}
