package com.chatreview.conversation.cluster;

import com.chatreview.chat.ChatId;
import com.chatreview.kernel.ServiceUnavailable;
import com.chatreview.redis.Redis;
import com.chatreview.redis.RedisReachability;
import io.lettuce.core.KeyValue;
import io.lettuce.core.RedisException;
import io.lettuce.core.ScriptOutputType;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A cluster's reply lanes: the frames of one chat are answered one at a time across all nodes, in the order of a
 * ticket each takes in Redis when it arrives.
 *
 * <p>A chat's lane is three keys: {@code tickets} (the last ticket taken), {@code serving} (the ticket whose turn
 * it is) and {@code lease} (held by the turn's node while it works, renewed every few seconds; or "pending" for a
 * short grace while the next ticket's node comes to take its turn). A node answers a frame when {@code serving}
 * reaches its ticket, then moves {@code serving} on. When the lease has run out (the node holding the turn died, or
 * never came to take it), a waiting node moves {@code serving} past that ticket, so a dead node blocks a chat for
 * at most the lease's time. A node whose turn was passed over that way takes a new ticket: its frame is still
 * answered, once.
 *
 * <p>On each node a chat's frames wait in a local lane, lowest ticket first, drained by one virtual thread.
 */
final class RedisReplyQueue implements ReplyQueue, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(RedisReplyQueue.class);

    /** A lane's keys go this long after its last ticket. */
    static final Duration RETENTION = Duration.ofHours(24);

    private static final long FIRST_WAIT_MILLIS = 2;
    private static final long LONGEST_WAIT_MILLIS = 50;

    /**
     * KEYS: tickets, serving, lease. ARGV: grace ms, retention ms, the most tickets that may wait (-1: any number).
     * Returns the ticket taken, or 0 when that many wait already (the ticket being served is not waiting).
     */
    private static final String TAKE_TICKET = """
            local most = tonumber(ARGV[3])
            if most >= 0 then
              local last = tonumber(redis.call('GET', KEYS[1]) or '0')
              local serving = tonumber(redis.call('GET', KEYS[2]) or '0')
              if serving > 0 and serving <= last and last - serving >= most then
                return 0
              end
            end
            local t = redis.call('INCR', KEYS[1])
            local s = tonumber(redis.call('GET', KEYS[2]) or '0')
            if s == 0 or s > t then
              redis.call('SET', KEYS[2], t)
              s = t
            end
            if s == t then
              redis.call('SET', KEYS[3], 'pending:' .. t, 'PX', ARGV[1])
            end
            redis.call('PEXPIRE', KEYS[1], ARGV[2])
            redis.call('PEXPIRE', KEYS[2], ARGV[2])
            return t
            """;

    /**
     * KEYS: tickets, serving, lease. ARGV: ticket, lease ms, grace ms. Returns 1 when the turn is the ticket's (the
     * lease is taken), 0 to wait, -1 when the ticket will never be served (passed over, or from before Redis lost
     * the lane): take another.
     */
    private static final String TAKE_TURN = """
            local t = tonumber(ARGV[1])
            local tickets = tonumber(redis.call('GET', KEYS[1]) or '0')
            if t > tickets then
              return -1
            end
            local s = tonumber(redis.call('GET', KEYS[2]) or '0')
            if s == 0 then
              redis.call('SET', KEYS[2], t)
              s = t
            end
            if s == t then
              redis.call('SET', KEYS[3], 'held:' .. t, 'PX', ARGV[2])
              return 1
            end
            if s > t then
              return -1
            end
            if redis.call('EXISTS', KEYS[3]) == 0 then
              redis.call('SET', KEYS[2], s + 1, 'KEEPTTL')
              redis.call('SET', KEYS[3], 'pending:' .. (s + 1), 'PX', ARGV[3])
            end
            return 0
            """;

    /** KEYS: lease. ARGV: ticket, lease ms. Returns 1 while the lease is still the ticket's. */
    private static final String RENEW = """
            if redis.call('GET', KEYS[1]) == 'held:' .. ARGV[1] then
              redis.call('PEXPIRE', KEYS[1], ARGV[2])
              return 1
            end
            return 0
            """;

    /** KEYS: tickets, serving, lease. ARGV: ticket, grace ms. Hands the turn to the next ticket. */
    private static final String RELEASE = """
            local s = tonumber(redis.call('GET', KEYS[2]) or '0')
            if s ~= tonumber(ARGV[1]) then
              return 0
            end
            redis.call('SET', KEYS[2], s + 1, 'KEEPTTL')
            local tickets = tonumber(redis.call('GET', KEYS[1]) or '0')
            if tickets > s then
              redis.call('SET', KEYS[3], 'pending:' .. (s + 1), 'PX', ARGV[2])
            else
              redis.call('DEL', KEYS[3])
            end
            return 1
            """;

    private final Redis redis;
    /** How long a turn's lease lasts unless renewed (a third of it before it would run out). */
    private final Duration lease;
    /** How long the next ticket's node has to take its turn before it is passed over. */
    private final Duration turnGrace;

    /** This node's frames of each chat, lowest ticket first. */
    private final LocalLanes<Ticketed> lanes;
    /** The chats whose turn this node holds, with the ticket: their leases are renewed. */
    private final Map<ChatId, Long> held = new ConcurrentHashMap<>();

    private final RedisReachability reachability;

    private final ScheduledExecutorService renewer = Executors.newSingleThreadScheduledExecutor(
            Thread.ofVirtual().name("reply-lease-renewer").factory());

    private record Ticketed(long ticket, Runnable work) {}

    RedisReplyQueue(Redis redis, RedisReachability reachability, Duration lease, Duration turnGrace) {
        this.redis = redis;
        this.reachability = reachability;
        this.lease = lease;
        this.turnGrace = turnGrace;
        this.lanes = new LocalLanes<>(
                () -> new PriorityQueue<>((a, b) -> Long.compare(a.ticket(), b.ticket())), new LocalLanes.Turns<>() {
                    @Override
                    public @Nullable Ticketed awaitTurn(ChatId chatId, LocalLanes<Ticketed> lanes) {
                        return RedisReplyQueue.this.awaitTurn(chatId);
                    }

                    @Override
                    public void run(ChatId chatId, Ticketed work) {
                        runHoldingTheLease(chatId, work);
                    }
                });
        long every = Math.max(1, lease.toMillis() / 3);
        renewer.scheduleWithFixedDelay(this::renewLeases, every, every, TimeUnit.MILLISECONDS);
    }

    /**
     * {@inheritDoc}
     *
     * @throws ServiceUnavailable while Redis is unreachable: no frame may skip the cluster's order
     */
    @Override
    public void submit(ChatId chatId, Runnable work) {
        enqueue(chatId, -1, work);
    }

    /**
     * {@inheritDoc}
     *
     * @throws ServiceUnavailable while Redis is unreachable
     */
    @Override
    public boolean offer(ChatId chatId, int maxWaiting, Runnable work) {
        return enqueue(chatId, Math.max(0, maxWaiting), work);
    }

    private boolean enqueue(ChatId chatId, int maxWaiting, Runnable work) {
        if (!reachability.reachable()) {
            throw laneUnavailable();
        }
        long ticket;
        try {
            ticket = takeTicket(chatId, maxWaiting);
        } catch (RedisException failed) {
            reachability.failed(failed);
            throw laneUnavailable();
        }
        if (ticket == 0) {
            return false;
        }
        // the ticket bounded the waiting frames across the cluster already
        lanes.add(chatId, new Ticketed(ticket, work), Integer.MAX_VALUE);
        return true;
    }

    private void runHoldingTheLease(ChatId chatId, Ticketed current) {
        held.put(chatId, current.ticket());
        try {
            current.work().run();
        } finally {
            held.remove(chatId);
            release(chatId, current.ticket());
        }
    }

    /**
     * Waits until the turn is the lowest local ticket's (a lower one may arrive meanwhile: tickets are taken
     * before their frames join the lane) and returns it, holding the chat's lease.
     */
    private @Nullable Ticketed awaitTurn(ChatId chatId) {
        long wait = FIRST_WAIT_MILLIS;
        while (true) {
            Ticketed head = lanes.head(chatId);
            if (head == null) {
                return null;
            }
            long turn;
            try {
                turn = (Long) redis.commands()
                        .eval(
                                TAKE_TURN,
                                ScriptOutputType.INTEGER,
                                keys(chatId),
                                Long.toString(head.ticket()),
                                Long.toString(lease.toMillis()),
                                Long.toString(turnGrace.toMillis()));
            } catch (RuntimeException e) {
                reachability.failed(e); // logged once for the outage, not per chat and try
                turn = 0;
                wait = LONGEST_WAIT_MILLIS;
            }
            if (turn == 1) {
                return head;
            }
            if (turn == -1) {
                log.warn(
                        "The turn of ticket {} in chat {} was passed over; it takes a new ticket",
                        head.ticket(),
                        chatId);
                try {
                    retake(chatId, head);
                    continue;
                } catch (RuntimeException e) {
                    log.warn("Taking a new ticket in chat {} failed; trying again: {}", chatId, e.toString());
                    wait = LONGEST_WAIT_MILLIS;
                }
            }
            sleep(wait);
            wait = Math.min(LONGEST_WAIT_MILLIS, wait * 2);
        }
    }

    private void retake(ChatId chatId, Ticketed passedOver) {
        lanes.replace(chatId, passedOver, new Ticketed(takeTicket(chatId, -1), passedOver.work()));
    }

    /** The next ticket of the chat's lane, or 0 when {@code maxWaiting} (unless -1) tickets wait already. */
    private long takeTicket(ChatId chatId, int maxWaiting) {
        return (Long) redis.commands()
                .eval(
                        TAKE_TICKET,
                        ScriptOutputType.INTEGER,
                        keys(chatId),
                        Long.toString(turnGrace.toMillis()),
                        Long.toString(RETENTION.toMillis()),
                        Integer.toString(maxWaiting));
    }

    private void release(ChatId chatId, long ticket) {
        try {
            redis.commands()
                    .eval(
                            RELEASE,
                            ScriptOutputType.INTEGER,
                            keys(chatId),
                            Long.toString(ticket),
                            Long.toString(turnGrace.toMillis()));
        } catch (RuntimeException e) {
            // the lease runs out by itself, and the next ticket's node passes over this turn
            log.warn("Handing on the turn of chat {} failed: {}", chatId, e.toString());
        }
    }

    private void renewLeases() {
        held.forEach((chatId, ticket) -> {
            try {
                Long renewed = redis.commands()
                        .eval(
                                RENEW,
                                ScriptOutputType.INTEGER,
                                new String[] {keys(chatId)[2]},
                                Long.toString(ticket),
                                Long.toString(lease.toMillis()));
                if (renewed == 0) {
                    log.warn(
                            "The lease of chat {} (ticket {}) was lost; another node may answer its next frame"
                                    + " while this reply goes on",
                            chatId,
                            ticket);
                }
            } catch (RuntimeException e) {
                reachability.failed(e);
            }
        });
    }

    private ServiceUnavailable laneUnavailable() {
        return new ServiceUnavailable(
                "The chat's reply order is kept in Redis, which is unreachable: the message was not taken",
                "Nothing was stored; send the message again after retry_after_ms.",
                reachability.retryAfter());
    }

    /**
     * Whether the chat has work running or waiting, on any node.
     *
     * @throws ServiceUnavailable while Redis is unreachable
     */
    @Override
    public boolean busy(ChatId chatId) {
        if (lanes.busy(chatId)) {
            return true;
        }
        if (!reachability.reachable()) {
            throw reachability.chatHoldUnknowable();
        }
        try {
            return busyElsewhere(chatId);
        } catch (RedisException failed) {
            reachability.failed(failed);
            throw reachability.chatHoldUnknowable();
        }
    }

    private boolean busyElsewhere(ChatId chatId) {
        String[] keys = keys(chatId);
        List<KeyValue<String, String>> values = redis.commands().mget(keys[0], keys[1]);
        long tickets = values.get(0).hasValue() ? Long.parseLong(values.get(0).getValue()) : 0;
        long serving = values.get(1).hasValue() ? Long.parseLong(values.get(1).getValue()) : 0;
        return tickets >= serving && serving > 0 && redis.commands().exists(keys[2]) > 0;
    }

    /** Waits for this node's lanes only: another node's work is that node's to finish. */
    @Override
    public boolean awaitIdle(Duration timeout) throws InterruptedException {
        return lanes.awaitIdle(timeout);
    }

    @Override
    public void close() {
        renewer.shutdownNow();
    }

    private static String[] keys(ChatId chatId) {
        // one hash slot for the three, so that the scripts also run on a Redis Cluster
        String lane = "crs:chat:{" + chatId + "}:lane:";
        return new String[] {lane + "tickets", lane + "serving", lane + "lease"};
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
