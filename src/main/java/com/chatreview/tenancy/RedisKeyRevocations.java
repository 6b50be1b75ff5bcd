package com.chatreview.tenancy;

import com.chatreview.ratelimit.RequestQuotas;
import com.chatreview.redis.Redis;
import io.lettuce.core.RedisException;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import java.time.Duration;
import java.util.UUID;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.json.JsonMapper;

/**
 * Revocations across a cluster: a mark per revoked key that outlives every node's key cache, asked along with a
 * cached key's first round trip of a request (so no node trusts a revoked key a moment longer), and a message on a
 * channel every node listens to, so that every node closes the key's connections within moments.
 */
class RedisKeyRevocations implements KeyRevocations, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(RedisKeyRevocations.class);
    private static final String CHANNEL = "crs:key-revocations";

    /** What goes over the channel. */
    record Revocation(UUID tenantId, UUID apiKeyId, String node) {}

    private final Redis redis;
    private final RequestQuotas quotas;
    private final JsonMapper json;
    private final Duration markLife;
    private final String node = UUID.randomUUID().toString();
    private final StatefulRedisPubSubConnection<String, String> subscription;

    /**
     * @param elsewhere told of each key revoked on another node, on a thread of its own (not Redis's I/O thread:
     *     closing connections may take a while)
     */
    RedisKeyRevocations(
            Redis redis,
            RequestQuotas quotas,
            JsonMapper json,
            Duration keyCacheTtl,
            Consumer<ApiKeyRevoked> elsewhere) {
        this.redis = redis;
        this.quotas = quotas;
        this.json = json;
        this.markLife = keyCacheTtl.multipliedBy(2).plusMinutes(1);
        this.subscription = redis.pubSubConnection();
        subscription.addListener(new RedisPubSubAdapter<>() {
            @Override
            public void message(String channel, String message) {
                Revocation revocation = json.readValue(message, Revocation.class);
                if (!node.equals(revocation.node())) {
                    ApiKeyRevoked revoked = new ApiKeyRevoked(revocation.tenantId(), revocation.apiKeyId());
                    Thread.ofVirtual().name("key-revoked").start(() -> elsewhere.accept(revoked));
                }
            }
        });
        subscription.sync().subscribe(CHANNEL);
    }

    @Override
    public void announce(ApiKeyRevoked revoked) {
        try {
            quotas.apiKeyRevoked(revoked.apiKeyId(), markLife);
            redis.commands()
                    .publish(
                            CHANNEL,
                            json.writeValueAsString(new Revocation(revoked.tenantId(), revoked.apiKeyId(), node)));
        } catch (RedisException failed) {
            // the database holds the revocation: the other nodes refuse the key when their caches lapse
            log.warn(
                    "Redis does not answer ({}): key {} is refused on other nodes within the key cache's time, and its"
                            + " connections there stay open",
                    failed.toString(),
                    revoked.apiKeyId());
        }
    }

    /** While Redis is unreachable: not revoked elsewhere as far as this node can tell (its cache's time bounds it). */
    @Override
    public boolean revoked(UUID apiKeyId) {
        return quotas.apiKeyRevoked(apiKeyId);
    }

    @Override
    public void close() {
        subscription.close();
    }
}
