package com.chatreview.lti.launch;

import com.chatreview.lti.LtiSettings;
import com.chatreview.redis.ConditionalOnRedis;
import com.chatreview.redis.Redis;
import com.chatreview.redis.RedisReachability;
import java.time.Clock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.json.JsonMapper;

@Configuration(proxyBeanMethods = false)
class LaunchConfiguration {

    @Bean
    @ConditionalOnRedis.Absent
    LoginStates ltiLoginStates(LtiSettings settings) {
        return new InProcessLoginStates(settings.loginTimeout(), settings.pendingLogins());
    }

    @Bean
    @ConditionalOnRedis
    LoginStates redisLtiLoginStates(Redis redis, RedisReachability reachability, JsonMapper json) {
        return new RedisLoginStates(redis, reachability, json);
    }

    @Bean
    LtiSessions ltiSessions(JdbcClient jdbc, JsonMapper json, LtiSettings settings, Clock clock) {
        return new LtiSessions(jdbc, json, settings.sessionLifetime(), clock);
    }
}
