package com.chatreview.redis;

import com.chatreview.kernel.ServiceUnavailable;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;

/**
 * Whether this node can reach Redis now: pinged every second, and marked unreachable at once by any caller whose
 * command failed. While it is unreachable, the modules take their degraded course at once instead of waiting for
 * each command to time out (limits fall back to the node's own, what cannot be decided alone is refused with 503),
 * and come back by themselves at the first answered ping. Logged once each way; shown as the {@code redis} health
 * component ({@link #DEGRADED}: the node serves, readiness stays UP) and the {@code redis.reachable} gauge.
 */
public final class RedisReachability implements HealthIndicator, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(RedisReachability.class);

    /** The node serves, without what needs Redis: ordered between DOWN and UP, answered with 200. */
    public static final Status DEGRADED = new Status("DEGRADED", "Redis is unreachable: limits are the node's own");

    private static final Duration PING_EVERY = Duration.ofSeconds(1);

    private final Redis redis;
    private final ScheduledExecutorService pinger;
    private volatile boolean reachable = true;
    private volatile @Nullable Instant unreachableSince;

    public RedisReachability(Redis redis, MeterRegistry meters) {
        this.redis = redis;
        Gauge.builder("redis.reachable", this, self -> self.reachable ? 1 : 0)
                .description("1 while this node reaches Redis, 0 while it runs on its own limits")
                .register(meters);
        this.pinger = Executors.newSingleThreadScheduledExecutor(
                Thread.ofVirtual().name("redis-pinger").factory());
        pinger.scheduleWithFixedDelay(this::ping, PING_EVERY.toMillis(), PING_EVERY.toMillis(), TimeUnit.MILLISECONDS);
    }

    public boolean reachable() {
        return reachable;
    }

    /** How long a client should wait before asking again for what needs Redis. */
    /**
     * Whether another node of the cluster holds a chat (an open connection, a reply being generated) cannot be told
     * without Redis: nothing is done, the caller comes back after Retry-After.
     */
    public ServiceUnavailable chatHoldUnknowable() {
        return new ServiceUnavailable(
                "Whether another node of the cluster holds this chat (an open connection, a reply being generated)"
                        + " cannot be told now: Redis is unreachable",
                "Nothing was done; try again after Retry-After.",
                retryAfter());
    }

    public Duration retryAfter() {
        return Duration.ofSeconds(5);
    }

    /** A command failed: Redis counts as unreachable until a ping is answered. */
    public void failed(Exception failure) {
        if (reachable) {
            reachable = false;
            unreachableSince = Instant.now();
            log.warn(
                    "Redis is unreachable ({}): limits and connection caps are this node's own, deletes and new"
                            + " replies wait for it (503 / SERVICE_UNAVAILABLE), events reach this node's connections"
                            + " only",
                    failure.toString());
        }
    }

    void ping() {
        try {
            redis.commands().ping();
            if (!reachable) {
                reachable = true;
                log.info(
                        "Redis answers again after {}: the node holds the cluster's limits again",
                        Duration.between(unreachableSince, Instant.now()));
            }
        } catch (RuntimeException failure) {
            failed(failure);
        }
    }

    @Override
    public Health health() {
        return reachable ? Health.up().build() : Health.status(DEGRADED).build();
    }

    @Override
    public void close() {
        pinger.shutdownNow();
    }
}
