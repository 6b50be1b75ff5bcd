package com.chatreview.redis;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.Delay;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The node's connections to Redis: one shared connection for commands (Lettuce pipelines the commands of every
 * thread on it, each thread's in the order it sends them), and dedicated ones for blocking reads.
 */
public final class Redis implements AutoCloseable {

    private final ClientResources resources;
    private final RedisClient client;
    private final StatefulRedisConnection<String, String> shared;

    public Redis(RedisSettings settings) {
        RedisURI uri = RedisURI.create(settings.url());
        uri.setTimeout(settings.commandTimeout());
        // reconnect attempts at most a second apart (Lettuce's default backs off to 30 s), so that a node is back
        // in the cluster within moments of Redis
        this.resources = DefaultClientResources.builder()
                .reconnectDelay(
                        Delay.exponential(Duration.ofMillis(50), Duration.ofSeconds(1), 2, TimeUnit.MILLISECONDS))
                .build();
        this.client = RedisClient.create(resources, uri);
        client.setOptions(ClientOptions.builder()
                .autoReconnect(true)
                // commands sent while disconnected fail at once rather than queue up unbounded
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .timeoutOptions(TimeoutOptions.enabled(settings.commandTimeout()))
                .build());
        this.shared = client.connect();
    }

    /** The shared connection's commands: for everything but blocking reads. */
    public RedisCommands<String, String> commands() {
        return shared.sync();
    }

    /** The shared connection's commands, without waiting for their answers (sent in order all the same). */
    public RedisAsyncCommands<String, String> async() {
        return shared.async();
    }

    /** A connection of its own, for a blocking read that would hold up the shared one; the caller closes it. */
    public StatefulRedisConnection<String, String> dedicatedConnection() {
        return client.connect();
    }

    /** A connection for subscriptions; Lettuce subscribes again after a reconnect. The caller closes it. */
    public StatefulRedisPubSubConnection<String, String> pubSubConnection() {
        return client.connectPubSub();
    }

    @Override
    public void close() {
        shared.close();
        client.shutdown();
        resources.shutdown();
    }
}
