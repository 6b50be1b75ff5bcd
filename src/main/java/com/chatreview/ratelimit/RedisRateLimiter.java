package com.chatreview.ratelimit;

import com.chatreview.redis.Redis;
import com.chatreview.redis.RedisReachability;
import com.chatreview.redis.RedisScript;
import io.lettuce.core.RedisException;
import io.lettuce.core.ScriptOutputType;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;

/**
 * Quotas held in Redis, so that they hold across every node: each bucket is a counter that lives one period from its
 * first spend (a fixed window: the whole allowance comes back at the end of each period, as {@link Quota} says).
 * Every decision is one script, one round trip, including a REST request's check of its address's failure budget
 * with the spend of its tenant's quota.
 *
 * <p>Why not Bucket4j's Redis proxy manager: it reads the bucket, computes in the JVM and writes it back with a
 * compare-and-swap, two round trips per attempt and a retry on every conflict, and a tenant's quota is one hot key
 * that every node spends from at once (measured: {@code docs/benchmarks.md}, "REST limits in Redis").
 *
 * <p>While Redis cannot be reached ({@link RedisReachability}), decisions fall back to the node's own buckets (the
 * limits fail open to node-local ones, as Envoy's global rate limit does) until it answers again.
 */
class RedisRateLimiter implements RateLimiter {

    /** All keys share one hash tag, so that the two-key script also runs on a Redis Cluster. */
    private static final String PREFIX = "crs:{quota}:";

    /** KEYS[1] the counter; ARGV[1] its period in ms. Returns {spent, ms until the window ends}. */
    private static final String SPEND_LUA = """
            local spent = redis.call('INCR', KEYS[1])
            local ttl = redis.call('PTTL', KEYS[1])
            if ttl < 0 then
              redis.call('PEXPIRE', KEYS[1], ARGV[1])
              ttl = tonumber(ARGV[1])
            end
            return {spent, ttl}
            """;

    private static final RedisScript SPEND = new RedisScript(SPEND_LUA, ScriptOutputType.MULTI);

    /** KEYS[1] the guard, KEYS[2] the counter; ARGV[1] the guard's limit, ARGV[2] the counter's period in ms. */
    private static final RedisScript SPEND_UNLESS_GUARD_FULL = new RedisScript(
            """
            local guard = tonumber(redis.call('GET', KEYS[1]) or '0')
            if guard >= tonumber(ARGV[1]) then
              return {-1, redis.call('PTTL', KEYS[1])}
            end
            """ + SPEND_LUA.replace("KEYS[1]", "KEYS[2]").replace("ARGV[1]", "ARGV[2]"), ScriptOutputType.MULTI);

    /** KEYS[1] the counter. Returns {spent, ms until the window ends}. */
    private static final RedisScript PEEK = new RedisScript("""
            local spent = tonumber(redis.call('GET', KEYS[1]) or '0')
            return {spent, redis.call('PTTL', KEYS[1])}
            """, ScriptOutputType.MULTI);

    private final Redis redis;
    private final RedisReachability reachability;
    private final RateLimiter fallback;

    RedisRateLimiter(Redis redis, RedisReachability reachability, RateLimiter fallback) {
        this.redis = redis;
        this.reachability = reachability;
        this.fallback = fallback;
    }

    @Override
    public RateLimitDecision tryConsume(String key, Quota quota) {
        return orFallback(
                () -> decision(SPEND.run(redis.commands(), keys(key), millis(quota)), quota),
                () -> fallback.tryConsume(key, quota));
    }

    @Override
    public Duration exhaustedFor(String key, Quota quota) {
        return orFallback(
                () -> {
                    List<Long> peek = PEEK.run(redis.commands(), keys(key));
                    return peek.get(0) >= quota.requests() ? window(peek.get(1), quota) : Duration.ZERO;
                },
                () -> fallback.exhaustedFor(key, quota));
    }

    @Override
    public RateLimitDecision tryConsumeUnlessExhausted(String guard, Quota guardQuota, String key, Quota quota) {
        return orFallback(
                () -> {
                    List<Long> answer = SPEND_UNLESS_GUARD_FULL.run(
                            redis.commands(), keys(guard, key), Long.toString(guardQuota.requests()), millis(quota));
                    return answer.get(0) < 0 ? null : decision(answer, quota);
                },
                () -> fallback.tryConsumeUnlessExhausted(guard, guardQuota, key, quota));
    }

    private <T> T orFallback(Supplier<T> inRedis, Supplier<T> local) {
        if (!reachability.reachable()) {
            return local.get();
        }
        try {
            return inRedis.get();
        } catch (RedisException failed) {
            reachability.failed(failed);
            return local.get();
        }
    }

    private static RateLimitDecision decision(List<Long> answer, Quota quota) {
        long spent = answer.get(0);
        Duration window = window(answer.get(1), quota);
        boolean allowed = spent <= quota.requests();
        return new RateLimitDecision(
                allowed,
                quota.requests(),
                Math.max(0, quota.requests() - spent),
                allowed ? Duration.ZERO : window,
                window);
    }

    /** A counter without a time to live (or gone meanwhile) is taken as a whole period away. */
    private static Duration window(long ttlMillis, Quota quota) {
        return ttlMillis < 0 ? quota.period() : Duration.ofMillis(ttlMillis);
    }

    private static String[] keys(String... names) {
        String[] keys = new String[names.length];
        for (int i = 0; i < names.length; i++) {
            keys[i] = PREFIX + names[i];
        }
        return keys;
    }

    private static String millis(Quota quota) {
        return Long.toString(quota.period().toMillis());
    }
}
