package com.chatreview.ratelimit;

import com.chatreview.redis.Redis;
import com.chatreview.redis.RedisReachability;
import com.chatreview.redis.RedisScript;
import io.lettuce.core.RedisException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SetArgs;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Quotas held in Redis, so that they hold across every node: each bucket is a counter that lives one period from its
 * first spend (a fixed window: the whole allowance comes back at the end of each period, as {@link Quota} says).
 * Every decision is one script, one round trip, including a REST request's check of its address's failure budget
 * with the spend of its tenant's quota; the REST requests of one tenant that come while its script is on its way go
 * together in the next one ({@link CombinedSpends}).
 *
 * <p>Why not Bucket4j's Redis proxy manager: it reads the bucket, computes in the JVM and writes it back with a
 * compare-and-swap, two round trips per attempt and a retry on every conflict, and a tenant's quota is one hot key
 * that every node spends from at once (measured: {@code docs/benchmarks.md}, "What Redis costs a REST request"; {@code docs/cluster.md}).
 *
 * <p>While Redis cannot be reached ({@link RedisReachability}), decisions fall back to the node's own buckets (the
 * limits fail open to node-local ones, as Envoy's global rate limit does) until it answers again.
 */
class RedisRateLimiter implements RateLimiter {

    /** All keys share one hash tag, so that the batch script's many keys also run on a Redis Cluster (one shard). */
    private static final String PREFIX = "crs:{quota}:";

    private static final String MARK = PREFIX + "mark:";

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

    /**
     * A batch of spends, each unless its guard is full or its mark set. KEYS[1] the counter, then each member's guard
     * and mark; ARGV[1] the guards' limit, ARGV[2] the counter's period in ms. Returns {spent, ms until the window
     * ends, then per member 0 (spent), 1 (its guard is full) or 2 (its mark is set)}.
     */
    private static final RedisScript SPEND_UNLESS_GUARDS_FULL = new RedisScript("""
            local limit = tonumber(ARGV[1])
            local result = {0, 0}
            local spending = 0
            for i = 2, #KEYS, 2 do
              local member = 3 + (i - 2) / 2
              if tonumber(redis.call('GET', KEYS[i]) or '0') >= limit then
                result[member] = 1
              elseif redis.call('EXISTS', KEYS[i + 1]) == 1 then
                result[member] = 2
              else
                result[member] = 0
                spending = spending + 1
              end
            end
            local spent
            if spending > 0 then
              spent = redis.call('INCRBY', KEYS[1], spending)
            else
              spent = tonumber(redis.call('GET', KEYS[1]) or '0')
            end
            local ttl = redis.call('PTTL', KEYS[1])
            if ttl < 0 and spending > 0 then
              redis.call('PEXPIRE', KEYS[1], ARGV[2])
              ttl = tonumber(ARGV[2])
            end
            result[1] = spent
            result[2] = ttl
            return result
            """, ScriptOutputType.MULTI);

    /** KEYS[1] the counter. Returns {spent, ms until the window ends}. */
    private static final RedisScript PEEK = new RedisScript("""
            local spent = tonumber(redis.call('GET', KEYS[1]) or '0')
            return {spent, redis.call('PTTL', KEYS[1])}
            """, ScriptOutputType.MULTI);

    private final Redis redis;
    private final RedisReachability reachability;
    private final RateLimiter fallback;
    /** By the guards' limit and the quota's period (one pair in practice: the REST quota's). */
    private final Map<String, CombinedSpends> combined = new ConcurrentHashMap<>();

    RedisRateLimiter(Redis redis, RedisReachability reachability, RateLimiter fallback) {
        this.redis = redis;
        this.reachability = reachability;
        this.fallback = fallback;
    }

    @Override
    public RateLimitDecision tryConsume(String key, Quota quota) {
        return orFallback(
                () -> {
                    List<Long> answer = SPEND.run(redis.commands(), keys(key), millis(quota));
                    return decision(answer.get(0), answer.get(1), quota);
                },
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
    public Guarded tryConsumeGuarded(String guard, Quota guardQuota, String mark, String key, Quota quota) {
        return orFallback(
                () -> {
                    CombinedSpends.Share share =
                            combined(guardQuota, quota).spend(PREFIX + key, PREFIX + guard, MARK + mark);
                    if (share.outcome() == 1) {
                        return new Guarded.GuardEmpty();
                    }
                    if (share.outcome() == 2) {
                        return new Guarded.Marked();
                    }
                    return new Guarded.Spent(decision(share.rank(), share.windowMillis(), quota));
                },
                () -> fallback.tryConsumeGuarded(guard, guardQuota, mark, key, quota));
    }

    /** Unlike a limit, a mark does not fall back to the node's own: while Redis is away it is not set. */
    @Override
    public void mark(String mark, Duration duration) {
        redis.commands().set(MARK + mark, "1", SetArgs.Builder.px(duration));
    }

    @Override
    public boolean marked(String mark) {
        return orFallback(() -> redis.commands().exists(MARK + mark) > 0, () -> false);
    }

    private CombinedSpends combined(Quota guardQuota, Quota quota) {
        String guardLimit = Long.toString(guardQuota.requests());
        String period = millis(quota);
        return combined.computeIfAbsent(
                guardLimit + "/" + period,
                kind -> new CombinedSpends((key, guards) -> {
                    String[] keys = new String[guards.size() + 1];
                    keys[0] = key;
                    for (int i = 0; i < guards.size(); i++) {
                        keys[i + 1] = guards.get(i);
                    }
                    return SPEND_UNLESS_GUARDS_FULL.run(redis.commands(), keys, guardLimit, period);
                }));
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

    /** The decision on the spend that was the window's {@code place}-th (from 1). */
    private static RateLimitDecision decision(long place, long ttlMillis, Quota quota) {
        Duration window = window(ttlMillis, quota);
        boolean allowed = place <= quota.requests();
        return new RateLimitDecision(
                allowed,
                quota.requests(),
                Math.max(0, quota.requests() - place),
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
