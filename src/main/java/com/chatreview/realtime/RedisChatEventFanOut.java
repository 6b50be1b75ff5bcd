package com.chatreview.realtime;

import com.chatreview.redis.Redis;
import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.RedisException;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.UnblockType;
import io.lettuce.core.XAddArgs;
import io.lettuce.core.XReadArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A cluster's fan-out: every event of a chat is appended to the chat's Redis stream, and each node reads the streams
 * of the chats it holds connections on and hands each event to those connections (their outboxes: this reader
 * never waits on a client). A stream is one order per chat, read from a remembered entry id, so a node receives
 * every event of the chat once and in order, also after a lost connection to Redis (within the stream's length);
 * pub/sub would lose what a node missed while disconnected. Even the publishing node's own connections get the
 * events through the stream, so that one order holds for all. {@code docs/cluster.md} says why.
 */
final class RedisChatEventFanOut implements ChatEventFanOut, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(RedisChatEventFanOut.class);

    /** Entries a chat's stream keeps (trimmed approximately): far more than one reply's tokens. */
    static final long STREAM_LENGTH = 10_000;
    /** A chat's stream goes this long after its last event. */
    static final Duration STREAM_RETENTION = Duration.ofHours(24);

    private static final String PREFIX = "crs:chat:";
    private static final String SUFFIX = ":events";
    private static final Duration BLOCK = Duration.ofSeconds(1);
    private static final int BATCH = 1000;
    private static final Duration PRUNE_EVERY = Duration.ofSeconds(1);

    private final Redis redis;
    private final ConnectionRegistry connections;
    /** The chats this node reads, each with the id of the last entry read from its stream. */
    private final Map<UUID, String> watched = new ConcurrentHashMap<>();

    private final StatefulRedisConnection<String, String> reader;
    private final Thread readerThread;
    private volatile long readerClientId;
    private volatile boolean running = true;
    private long lastPrune = System.nanoTime();

    RedisChatEventFanOut(Redis redis, ConnectionRegistry connections) {
        this.redis = redis;
        this.connections = connections;
        this.reader = redis.dedicatedConnection();
        this.readerClientId = reader.sync().clientId();
        this.readerThread =
                Thread.ofPlatform().name("chat-events-reader").daemon().start(this::read);
    }

    @Override
    public void publish(UUID chatId, ChatEvent event) {
        String key = key(chatId);
        redis.commands()
                .xadd(
                        key,
                        XAddArgs.Builder.maxlen(STREAM_LENGTH).approximateTrimming(),
                        Map.of("seq", Long.toString(event.seq()), "event", event.json()));
        redis.async().pexpire(key, STREAM_RETENTION.toMillis());
    }

    @Override
    public long watch(UUID chatId) {
        List<StreamMessage<String, String>> last =
                redis.commands().xrevrange(key(chatId), Range.create("-", "+"), Limit.from(1));
        String lastId = last.isEmpty() ? "0-0" : last.getFirst().getId();
        if (watched.putIfAbsent(chatId, lastId) == null) {
            synchronized (watched) {
                watched.notifyAll();
            }
            wakeReader();
        }
        return last.isEmpty() ? 0 : Long.parseLong(last.getFirst().getBody().get("seq"));
    }

    /** The reader blocks on the streams it knew of; a chat to add makes it start again with the new one. */
    private void wakeReader() {
        try {
            redis.commands().clientUnblock(readerClientId, UnblockType.TIMEOUT);
        } catch (RedisException e) {
            log.debug("Could not wake the event reader; it reads the new chat within {}", BLOCK, e);
        }
    }

    private void read() {
        while (running) {
            try {
                if (watched.isEmpty()) {
                    synchronized (watched) {
                        watched.wait(50);
                    }
                } else {
                    readOnce();
                }
                pruneNowAndThen();
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                if (!running) {
                    return;
                }
                log.warn("Reading chat events from Redis failed; trying again: {}", e.toString());
                pause();
            }
        }
    }

    @SuppressWarnings("unchecked")
    private void readOnce() {
        XReadArgs.StreamOffset<String>[] offsets = watched.entrySet().stream()
                .map(chat -> XReadArgs.StreamOffset.from(key(chat.getKey()), chat.getValue()))
                .toArray(XReadArgs.StreamOffset[]::new);
        if (offsets.length == 0) {
            return;
        }
        List<StreamMessage<String, String>> messages =
                reader.sync().xread(XReadArgs.Builder.block(BLOCK).count(BATCH), offsets);
        if (messages == null || messages.isEmpty()) {
            // timed out, or woken for a new chat: the connection may have been made anew meanwhile
            readerClientId = reader.sync().clientId();
            return;
        }
        for (StreamMessage<String, String> message : messages) {
            UUID chatId = chatOf(message.getStream());
            String[] advanced = {null};
            watched.computeIfPresent(chatId, (chat, lastId) -> {
                if (compareIds(message.getId(), lastId) > 0) {
                    advanced[0] = message.getId();
                    return message.getId();
                }
                return lastId;
            });
            if (advanced[0] == null) {
                continue;
            }
            ChatEvent event = new ChatEvent(
                    Long.parseLong(message.getBody().get("seq")),
                    message.getBody().get("event"));
            for (Connection connection : connections.onChat(chatId)) {
                connection.deliver(event);
            }
        }
    }

    /** Stops reading the chats this node no longer holds a connection on. */
    private void pruneNowAndThen() {
        if (System.nanoTime() - lastPrune < PRUNE_EVERY.toNanos()) {
            return;
        }
        lastPrune = System.nanoTime();
        for (UUID chatId : watched.keySet()) {
            watched.computeIfPresent(
                    chatId, (chat, lastId) -> connections.onChat(chat).isEmpty() ? null : lastId);
        }
    }

    private void pause() {
        try {
            Thread.sleep(200);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            readerClientId = reader.sync().clientId();
        } catch (RedisException e) {
            // still away; the next read tells
        }
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        wakeReader();
        readerThread.interrupt();
        readerThread.join(Duration.ofSeconds(5));
        reader.close();
    }

    static String key(UUID chatId) {
        return PREFIX + chatId + SUFFIX;
    }

    private static UUID chatOf(String key) {
        return UUID.fromString(key.substring(PREFIX.length(), key.length() - SUFFIX.length()));
    }

    /** Stream entry ids are {@code millis-sequence}. */
    static int compareIds(String left, String right) {
        int leftDash = left.indexOf('-');
        int rightDash = right.indexOf('-');
        int byTime = Long.compare(
                Long.parseLong(left.substring(0, leftDash)), Long.parseLong(right.substring(0, rightDash)));
        return byTime != 0
                ? byTime
                : Long.compare(
                        Long.parseLong(left.substring(leftDash + 1)), Long.parseLong(right.substring(rightDash + 1)));
    }
}
