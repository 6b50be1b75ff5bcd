package com.chatreview.conversation.cluster;

import com.chatreview.chat.ChatId;
import com.chatreview.redis.Redis;
import com.chatreview.redis.RedisReachability;
import com.chatreview.tenancy.TenantId;
import io.lettuce.core.ScriptOutputType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A cluster's owed replies: each is a hash in Redis naming the node answering it, and a member of one sorted set
 * scored by when that node's hold lapses (Redis's clock). The node renews its holds every third of a lease; a node
 * that dies stops renewing, and once a hold has lapsed any node may claim it ({@link #claimLapsed}) and answer the
 * question again. A node that finds its hold claimed by another (it stalled past its lease) stops its reply.
 *
 * <p>All keys share the hash tag {@code {owed}}: one slot, so that the scripts also run on a Redis Cluster.
 */
public final class RedisOwedReplies implements OwedReplies, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(RedisOwedReplies.class);

    private static final String DUE = "crs:{owed}:due";
    private static final String REPLY = "crs:{owed}:reply:";
    /** A record outlives its last renewal by this much at most, whatever happens to its node and the sweep. */
    static final Duration RETENTION = Duration.ofDays(1);

    private static final String NOW = """
            local clock = redis.call('TIME')
            local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
            """;

    /** KEYS: due, reply. ARGV: question, lease ms, retention ms, node, tenant, chat, user, reply id. */
    private static final String OWE = NOW + """
            redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
            redis.call('HSET', KEYS[2], 'node', ARGV[4], 'tenant', ARGV[5], 'chat', ARGV[6], 'user', ARGV[7],
              'reply', ARGV[8])
            redis.call('PEXPIRE', KEYS[2], ARGV[3])
            return 1
            """;

    /**
     * KEYS: due, then each held reply's hash. ARGV: lease ms, node, then each held question. Returns, per question,
     * 1 (renewed), 0 (another node holds it now) or -1 (gone: Redis lost it).
     */
    private static final String RENEW = NOW + """
            local result = {}
            for i = 2, #KEYS do
              local holder = redis.call('HGET', KEYS[i], 'node')
              if holder == ARGV[2] then
                redis.call('ZADD', KEYS[1], now + tonumber(ARGV[1]), ARGV[i + 1])
                result[i - 1] = 1
              elseif holder then
                result[i - 1] = 0
              else
                result[i - 1] = -1
              end
            end
            return result
            """;

    /** KEYS: due, then each held reply's hash. ARGV: node, then each held question. Lapses the holds at once. */
    private static final String HAND_OVER = """
            for i = 2, #KEYS do
              if redis.call('HGET', KEYS[i], 'node') == ARGV[1] then
                redis.call('ZADD', KEYS[1], 0, ARGV[i])
                redis.call('HSET', KEYS[i], 'node', '')
              end
            end
            return 1
            """;

    /** KEYS: due, reply. ARGV: question, node. */
    private static final String PAID = """
            if redis.call('HGET', KEYS[2], 'node') == ARGV[2] then
              redis.call('ZREM', KEYS[1], ARGV[1])
              redis.call('DEL', KEYS[2])
            end
            return 1
            """;

    /**
     * KEYS: due. ARGV: lease ms, node, most, the reply hashes' prefix. Claims the lapsed holds (at most {@code
     * most}): returns question, tenant, chat, user, reply id for each.
     */
    private static final String CLAIM = NOW + """
            local lapsed = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'LIMIT', 0, tonumber(ARGV[3]))
            local claimed = {}
            for _, question in ipairs(lapsed) do
              local key = ARGV[4] .. question
              local owed = redis.call('HMGET', key, 'tenant', 'chat', 'user', 'reply')
              if owed[1] then
                redis.call('ZADD', KEYS[1], now + tonumber(ARGV[1]), question)
                redis.call('HSET', key, 'node', ARGV[2])
                table.insert(claimed, question)
                for _, value in ipairs(owed) do
                  table.insert(claimed, value)
                end
              else
                redis.call('ZREM', KEYS[1], question)
              end
            end
            return claimed
            """;

    private static final int CLAIM_AT_ONCE = 100;

    private final Redis redis;
    private final RedisReachability reachability;
    private final Duration lease;
    private final String node = UUID.randomUUID().toString();
    /** The replies this node answers, by question: their holds are renewed. */
    private final Map<UUID, OwedReply> held = new ConcurrentHashMap<>();
    /** Replies this node was answering when another node claimed them. */
    private final Set<UUID> lost = ConcurrentHashMap.newKeySet();
    /** The node is stopping: what it could not finish is for the other nodes. */
    private volatile boolean handingOver;

    private final ScheduledExecutorService renewer = Executors.newSingleThreadScheduledExecutor(
            Thread.ofVirtual().name("owed-replies-renewer").factory());

    RedisOwedReplies(Redis redis, RedisReachability reachability, Duration lease) {
        this.redis = redis;
        this.reachability = reachability;
        this.lease = lease;
        long every = Math.max(1, lease.toMillis() / 3);
        renewer.scheduleWithFixedDelay(this::renew, every, every, TimeUnit.MILLISECONDS);
    }

    /** While Redis is unreachable nothing is recorded: a reply whose node dies then is not taken over. */
    @Override
    public void owe(OwedReply reply) {
        held.put(reply.questionId(), reply);
        record(reply);
    }

    private void record(OwedReply reply) {
        if (!reachability.reachable()) {
            return;
        }
        try {
            redis.commands()
                    .eval(
                            OWE,
                            ScriptOutputType.INTEGER,
                            new String[] {DUE, REPLY + reply.questionId()},
                            reply.questionId().toString(),
                            Long.toString(lease.toMillis()),
                            Long.toString(RETENTION.toMillis()),
                            node,
                            reply.tenantId().toString(),
                            reply.chatId().toString(),
                            reply.userId(),
                            reply.replyId().toString());
        } catch (RuntimeException e) {
            reachability.failed(e);
        }
    }

    @Override
    public void paid(OwedReply reply) {
        held.remove(reply.questionId());
        if (lost.remove(reply.questionId()) || !reachability.reachable()) {
            return;
        }
        try {
            redis.commands()
                    .eval(
                            PAID,
                            ScriptOutputType.INTEGER,
                            new String[] {DUE, REPLY + reply.questionId()},
                            reply.questionId().toString(),
                            node);
        } catch (RuntimeException e) {
            // the hold lapses by itself; whoever claims it finds the reply stored and answers nothing
            reachability.failed(e);
        }
    }

    @Override
    public boolean takenOver(OwedReply reply) {
        return lost.contains(reply.questionId());
    }

    /**
     * Claims the replies whose node's hold has lapsed: this node holds them from now on, and must answer them (or
     * {@link #paid} them).
     */
    public List<OwedReply> claimLapsed() {
        if (handingOver || !reachability.reachable()) {
            return List.of();
        }
        List<Object> claimed;
        try {
            claimed = redis.commands()
                    .eval(
                            CLAIM,
                            ScriptOutputType.MULTI,
                            new String[] {DUE},
                            Long.toString(lease.toMillis()),
                            node,
                            Integer.toString(CLAIM_AT_ONCE),
                            REPLY);
        } catch (RuntimeException e) {
            reachability.failed(e);
            return List.of();
        }
        List<OwedReply> replies = new ArrayList<>();
        for (int i = 0; i + 4 < claimed.size(); i += 5) {
            OwedReply reply = new OwedReply(
                    TenantId.of(UUID.fromString((String) claimed.get(i + 1))),
                    ChatId.of(UUID.fromString((String) claimed.get(i + 2))),
                    (String) claimed.get(i + 3),
                    UUID.fromString((String) claimed.get(i)),
                    UUID.fromString((String) claimed.get(i + 4)));
            held.put(reply.questionId(), reply);
            replies.add(reply);
        }
        return replies;
    }

    @Override
    public boolean othersTakeOver() {
        return true;
    }

    @Override
    public void handOver() {
        handingOver = true; // it claims nothing more, also not what it hands over now
        List<OwedReply> replies = List.copyOf(held.values());
        if (replies.isEmpty()) {
            return;
        }
        replies.forEach(reply -> lost.add(reply.questionId()));
        held.clear();
        try {
            redis.commands().eval(HAND_OVER, ScriptOutputType.INTEGER, keysOf(replies), argsOf(replies, node));
            log.info("Handed over {} unfinished replies to the other nodes", replies.size());
        } catch (RuntimeException e) {
            // their holds lapse by themselves within a lease
            log.warn("Handing over {} unfinished replies failed: {}", replies.size(), e.toString());
        }
    }

    /** This node lets go of a claimed reply it could not start on: it lapses again, for any node to claim. */
    public void letGo(OwedReply reply) {
        held.remove(reply.questionId());
    }

    void renew() {
        if (held.isEmpty() || !reachability.reachable()) {
            return;
        }
        List<OwedReply> replies = List.copyOf(held.values());
        List<Long> renewed;
        try {
            renewed = redis.commands()
                    .eval(
                            RENEW,
                            ScriptOutputType.MULTI,
                            keysOf(replies),
                            argsOf(replies, Long.toString(lease.toMillis()), node));
        } catch (RuntimeException e) {
            reachability.failed(e);
            return;
        }
        for (int i = 0; i < replies.size(); i++) {
            OwedReply reply = replies.get(i);
            long result = renewed.get(i);
            if (result == 0 && held.remove(reply.questionId()) != null) {
                log.warn(
                        "The reply to question {} in chat {} was taken over by another node; this node stops it",
                        reply.questionId(),
                        reply.chatId());
                lost.add(reply.questionId());
            } else if (result == -1 && held.containsKey(reply.questionId())) {
                record(reply); // Redis restarted empty: the hold is put back
            }
        }
    }

    /** The keys of a script over several replies: the sorted set, then each reply's hash. */
    private static String[] keysOf(List<OwedReply> replies) {
        String[] keys = new String[replies.size() + 1];
        keys[0] = DUE;
        for (int i = 0; i < replies.size(); i++) {
            keys[i + 1] = REPLY + replies.get(i).questionId();
        }
        return keys;
    }

    /** The arguments of a script over several replies: {@code leading}, then each reply's question. */
    private static String[] argsOf(List<OwedReply> replies, String... leading) {
        String[] args = new String[leading.length + replies.size()];
        System.arraycopy(leading, 0, args, 0, leading.length);
        for (int i = 0; i < replies.size(); i++) {
            args[leading.length + i] = replies.get(i).questionId().toString();
        }
        return args;
    }

    @Override
    public void close() {
        renewer.shutdownNow();
    }
}
