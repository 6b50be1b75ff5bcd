package com.chatreview.realtime;

import com.chatreview.chat.ChatId;
import com.chatreview.kernel.ServiceUnavailable;
import com.chatreview.redis.Redis;
import com.chatreview.redis.RedisReachability;
import com.chatreview.redis.RedisScript;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.async.RedisAsyncCommands;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The connections of every node, for the caps and for "is anyone on this chat": each open connection holds a slot in
 * Redis (in the sorted sets of its tenant, its chat, and for a link's connection its chat's link slots), scored by
 * when its lease ends. The node renews its connections' leases every third of a lease; a node that dies stops
 * renewing, and its slots lapse within one lease. Expired slots are swept by the script that counts them.
 *
 * <p>The node's own connections are also kept here, in memory, for what only this node can do with them (send,
 * close, ping). When Redis cannot be reached, caps fall back to this node's own connections, and connections opened
 * meanwhile take their slots at the next renewal after Redis answers again.
 */
class RedisConnectionRegistry implements ConnectionRegistry, AutoCloseable {

    /** One hash tag, so that the scripts' keys share a slot on a Redis Cluster. */
    private static final String PREFIX = "crs:{conn}:";

    private static final String NOW_LUA = """
            local time = redis.call('TIME')
            local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
            """;

    /**
     * KEYS: the tenant's slots of the connection's kind (key or link), the chat's, the chat's link slots. ARGV: connection id, lease ms, tenant cap, link cap
     * ('' for a connection opened with a key). Returns 0 opened, 1 the tenant is full, 2 the chat's link slots are.
     */
    private static final RedisScript TRY_OPEN = new RedisScript(NOW_LUA + """
            local expiry = now + tonumber(ARGV[2])
            for i = 1, 3 do
              redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now)
            end
            if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then
              return 1
            end
            local taken = {1, 2}
            if ARGV[4] ~= '' then
              if redis.call('ZCARD', KEYS[3]) >= tonumber(ARGV[4]) then
                return 2
              end
              taken = {1, 2, 3}
            end
            for _, i in ipairs(taken) do
              redis.call('ZADD', KEYS[i], expiry, ARGV[1])
              redis.call('PEXPIRE', KEYS[i], ARGV[2])
            end
            return 0
            """, ScriptOutputType.INTEGER);

    /** KEYS: the chat's slots. Returns how many are held. */
    private static final RedisScript HELD = new RedisScript(NOW_LUA + """
            return redis.call('ZCOUNT', KEYS[1], '(' .. now, '+inf')
            """, ScriptOutputType.INTEGER);

    private final Redis redis;
    private final RedisReachability reachability;
    private final Duration lease;
    private final InProcessConnectionRegistry local = new InProcessConnectionRegistry();
    private final ScheduledExecutorService renewals;

    RedisConnectionRegistry(Redis redis, RedisReachability reachability, Duration lease) {
        this.redis = redis;
        this.reachability = reachability;
        this.lease = lease;
        this.renewals = Executors.newSingleThreadScheduledExecutor(
                Thread.ofVirtual().name("ws-slot-renewals").factory());
        long every = Math.max(1, lease.toMillis() / 3);
        renewals.scheduleWithFixedDelay(this::renewAll, every, every, TimeUnit.MILLISECONDS);
    }

    @Override
    public Opening tryOpen(Connection connection, int tenantLimit, int linkLimit) {
        if (!reachability.reachable()) {
            return local.tryOpen(connection, tenantLimit, linkLimit);
        }
        long answer;
        try {
            answer = TRY_OPEN.run(
                    redis.commands(),
                    openingKeys(connection),
                    connection.id,
                    Long.toString(lease.toMillis()),
                    Integer.toString(tenantLimit),
                    connection.apiKeyId == null ? Integer.toString(linkLimit) : "");
        } catch (RedisException failed) {
            reachability.failed(failed);
            return local.tryOpen(connection, tenantLimit, linkLimit);
        }
        if (answer == 1) {
            return Opening.TENANT_FULL;
        }
        if (answer == 2) {
            return Opening.CHAT_FULL;
        }
        local.tryOpen(connection, Integer.MAX_VALUE, Integer.MAX_VALUE);
        return Opening.OPENED;
    }

    @Override
    public void closed(Connection connection) {
        if (!local.holds(connection)) {
            return;
        }
        local.closed(connection);
        release(connection);
    }

    @Override
    public List<Connection> onChat(ChatId chatId) {
        return local.onChat(chatId);
    }

    /**
     * Whether any node holds a slot on the chat: Redis must answer, for no node can tell alone.
     *
     * @throws ServiceUnavailable while Redis is unreachable
     */
    @Override
    public boolean anyOpen(ChatId chatId) {
        if (local.anyOpen(chatId)) {
            return true;
        }
        if (!reachability.reachable()) {
            throw reachability.chatHoldUnknowable();
        }
        try {
            long held = HELD.run(redis.commands(), new String[] {PREFIX + "chat:" + chatId});
            return held > 0;
        } catch (RedisException failed) {
            reachability.failed(failed);
            throw reachability.chatHoldUnknowable();
        }
    }

    @Override
    public List<Connection> all() {
        return local.all();
    }

    /** Extends the lease of every connection of this node, and takes back the slots Redis lost (a restart). */
    void renewAll() {
        List<Connection> connections = local.all();
        if (connections.isEmpty() || !reachability.reachable()) {
            return;
        }
        try {
            List<String> time = redis.commands().time();
            long expiry = Long.parseLong(time.get(0)) * 1000 + Long.parseLong(time.get(1)) / 1000 + lease.toMillis();
            RedisAsyncCommands<String, String> async = redis.async();
            List<RedisFuture<?>> sent = new ArrayList<>();
            for (Connection connection : connections) {
                for (String key : slots(connection)) {
                    sent.add(async.zadd(key, expiry, connection.id));
                    sent.add(async.pexpire(key, lease.toMillis()));
                }
            }
            for (RedisFuture<?> future : sent) {
                future.get(lease.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException stopped) {
            Thread.currentThread().interrupt();
            return;
        } catch (Exception failed) {
            reachability.failed(failed);
            return;
        }
        // a connection that closed while its lease was renewed got its slot back: release it again
        for (Connection connection : connections) {
            if (!local.holds(connection)) {
                release(connection);
            }
        }
    }

    private void release(Connection connection) {
        if (!reachability.reachable()) {
            return;
        }
        try {
            RedisAsyncCommands<String, String> async = redis.async();
            List<RedisFuture<Long>> sent = new ArrayList<>();
            for (String key : slots(connection)) {
                sent.add(async.zrem(key, connection.id));
            }
            for (RedisFuture<Long> future : sent) {
                future.get(lease.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException stopped) {
            Thread.currentThread().interrupt();
        } catch (Exception failed) {
            // the slot lapses with its lease, as a dead node's do
            reachability.failed(failed);
        }
    }

    /** The keys {@link #TRY_OPEN} takes: the tenant's slots, the chat's, the chat's link slots. */
    private static String[] openingKeys(Connection connection) {
        return new String[] {
            PREFIX + (connection.apiKeyId == null ? "tenant-links:" : "tenant:") + connection.tenantId,
            PREFIX + "chat:" + connection.chatId,
            PREFIX + "link:" + connection.chatId
        };
    }

    /** The sets the connection holds a slot in: a connection opened with a key holds none of the link slots. */
    private static List<String> slots(Connection connection) {
        List<String> keys = List.of(openingKeys(connection));
        return connection.apiKeyId == null ? keys : keys.subList(0, 2);
    }

    @Override
    public void close() {
        renewals.shutdownNow();
    }
}
