package com.chatreview.redis;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Where Redis is.
 *
 * @param url {@code redis://[user:password@]host:port[/database]} ({@code REDIS_URL}); blank: a single node, no Redis
 * @param commandTimeout how long one command may take before it fails
 */
@ConfigurationProperties("redis")
public record RedisSettings(String url, @DefaultValue("2s") Duration commandTimeout) {

    public boolean configured() {
        return url != null && !url.isBlank();
    }
}
