package com.chatreview.conversation.cluster;

import com.chatreview.chat.ChatId;
import com.chatreview.conversation.ChatEvent;
import com.chatreview.conversation.ChatListeners;
import com.chatreview.redis.Redis;
import com.chatreview.redis.RedisReachability;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.RedisException;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.XAddArgs;
import io.lettuce.core.XReadArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/**
 * A cluster's fan-out: every event of a chat is appended to one of a few Redis streams (the chat's shard), and each
 * node reads all of them and hands each event to its connections on the event's chat (their outboxes: this reader
 * never waits on a client). A stream is one order, read from a remembered entry id, so a node receives every event
 * once and in order, also after a lost connection to Redis (within the stream's length); pub/sub would lose what a
 * node missed while disconnected. Even the publishing node's own connections get the events through the stream, so
 * that one order holds for all. {@code docs/cluster.md} says why, and what was measured.
 */
final class RedisChatEventFanOut implements ChatEventFanOut, AutoCloseable {

    /** Streams the events are spread over (by chat), so that a Redis Cluster can spread them too. */
    static final int SHARDS = 16;
    /**
     * How long a shard's stream keeps an entry (trimmed approximately, by its id's time): far longer than a node's
     * reader takes to catch up after a lost connection (Lettuce reconnects within a second), and Redis's memory
     * grows with the event rate, not with the time the cluster has run (a count cap of 100,000 entries a stream
     * held 420 MiB once reached, whatever the traffic: bench/redis-memory-results.md).
     */
    static final Duration STREAM_RETENTION = Duration.ofSeconds(60);

    private static final Duration BLOCK = Duration.ofSeconds(1);
    private static final int BATCH = 1000;

    private final Redis redis;
    private final RedisReachability reachability;
    private final ChatListeners listeners;
    /** The id of the last entry read from each shard. */
    private final String[] lastIds = new String[SHARDS];
    /** The seq of the last event read of each chat, to tell a new connection where its events start. */
    private final Cache<ChatId, Long> lastRead = Caffeine.newBuilder()
            .expireAfterWrite(Duration.ofHours(1))
            .maximumSize(1_000_000)
            .build();

    private final StatefulRedisConnection<String, String> reader;
    private final Thread readerThread;
    private volatile boolean running = true;

    RedisChatEventFanOut(Redis redis, RedisReachability reachability, ChatListeners listeners) {
        this.redis = redis;
        this.reachability = reachability;
        this.listeners = listeners;
        for (int shard = 0; shard < SHARDS; shard++) {
            List<StreamMessage<String, String>> last =
                    redis.commands().xrevrange(shardKey(shard), Range.create("-", "+"), Limit.from(1));
            lastIds[shard] = last.isEmpty() ? "0-0" : last.getFirst().getId();
        }
        this.reader = redis.dedicatedConnection();
        this.readerThread =
                Thread.ofPlatform().name("chat-events-reader").daemon().start(this::read);
    }

    /**
     * While Redis is unreachable the event goes to this node's connections only; the other nodes' connections catch
     * up from the database when they resume (stored messages never depend on Redis).
     */
    @Override
    public boolean publishesWithoutWaiting() {
        return false;
    }

    @Override
    public void publish(ChatId chatId, ChatEvent event) {
        if (reachability.reachable()) {
            try {
                redis.commands()
                        .xadd(
                                shardKey(shardOf(chatId)),
                                new XAddArgs()
                                        .minId(Long.toString(System.currentTimeMillis() - STREAM_RETENTION.toMillis()))
                                        .approximateTrimming(),
                                Map.of(
                                        "chat",
                                        chatId.toString(),
                                        "seq",
                                        Long.toString(event.seq()),
                                        "event",
                                        event.json()));
                return;
            } catch (RedisException failed) {
                reachability.failed(failed);
            }
        }
        deliver(chatId, event);
    }

    private void deliver(ChatId chatId, ChatEvent event) {
        lastRead.asMap().merge(chatId, event.seq(), Math::max);
        for (ChatListeners.Listener listener : listeners.onChat(chatId)) {
            listener.deliver(event);
        }
    }

    /**
     * The reader delivers each event to the connections registered when it gets to it, after noting its seq: a
     * connection registered before this call receives every event after the seq returned.
     */
    @Override
    public long watch(ChatId chatId) {
        Long seq = lastRead.getIfPresent(chatId);
        return seq == null ? 0 : seq;
    }

    private void read() {
        while (running) {
            try {
                readOnce();
            } catch (RuntimeException e) {
                if (!running) {
                    return;
                }
                reachability.failed(e); // logged once for the outage, not per try
                try {
                    Thread.sleep(200);
                } catch (InterruptedException interrupted) {
                    return;
                }
            }
        }
    }

    @SuppressWarnings("unchecked")
    private void readOnce() {
        XReadArgs.StreamOffset<String>[] offsets = new XReadArgs.StreamOffset[SHARDS];
        for (int shard = 0; shard < SHARDS; shard++) {
            offsets[shard] = XReadArgs.StreamOffset.from(shardKey(shard), lastIds[shard]);
        }
        List<StreamMessage<String, String>> messages =
                reader.sync().xread(XReadArgs.Builder.block(BLOCK).count(BATCH), offsets);
        if (messages == null) {
            return;
        }
        for (StreamMessage<String, String> message : messages) {
            lastIds[shardOfKey(message.getStream())] = message.getId();
            Map<String, String> body = message.getBody();
            // every entry is written by publish() with all three fields
            ChatId chatId = ChatId.of(UUID.fromString(Objects.requireNonNull(body.get("chat"))));
            ChatEvent event = new ChatEvent(
                    Long.parseLong(Objects.requireNonNull(body.get("seq"))), Objects.requireNonNull(body.get("event")));
            deliver(chatId, event);
        }
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        readerThread.interrupt();
        readerThread.join(Duration.ofSeconds(5));
        reader.close();
    }

    static int shardOf(ChatId chatId) {
        return Math.floorMod(chatId.hashCode(), SHARDS);
    }

    private static String shardKey(int shard) {
        // a hash tag of its own per shard: a Redis Cluster puts the shards on different nodes
        return "crs:events:{" + shard + "}";
    }

    private static int shardOfKey(String key) {
        return Integer.parseInt(key.substring(key.indexOf('{') + 1, key.indexOf('}')));
    }
}
