package com.chatreview.conversation.cluster;

import com.chatreview.chat.ChatId;
import com.chatreview.conversation.ChatEvent;
import com.chatreview.redis.Redis;
import com.chatreview.redis.RedisReachability;
import io.lettuce.core.RedisFuture;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A cluster's replies in progress: each chat's in a Redis list that every node reads, so that a client resumes on
 * any node and a node taking over a dead node's turn sees what was streamed. The list is written without waiting
 * for Redis: the fan-out's append of the same event, sent after it on the same connection, waits, so the list
 * holds an event before any node can hand that event to a connection. This node's own copy answers while Redis is
 * unreachable.
 */
final class RedisStreamsInProgress implements StreamsInProgress {

    /** A list outlives its reply's start by this much at most: a reply streams for minutes, not hours. */
    static final Duration RETENTION = Duration.ofHours(1);

    private final Redis redis;
    private final RedisReachability reachability;
    private final InProcessStreamsInProgress local = new InProcessStreamsInProgress();

    RedisStreamsInProgress(Redis redis, RedisReachability reachability) {
        this.redis = redis;
        this.reachability = reachability;
    }

    @Override
    public void started(ChatId chatId, ChatEvent started) {
        local.started(chatId, started);
        if (reachability.reachable()) {
            String key = key(chatId);
            watch(redis.async().del(key));
            watch(redis.async().rpush(key, encode(started)));
            watch(redis.async().pexpire(key, RETENTION.toMillis()));
        }
    }

    @Override
    public void token(ChatId chatId, ChatEvent token) {
        local.token(chatId, token);
        if (reachability.reachable()) {
            watch(redis.async().rpush(key(chatId), encode(token)));
        }
    }

    @Override
    public void ended(ChatId chatId) {
        local.ended(chatId);
        if (reachability.reachable()) {
            watch(redis.async().del(key(chatId)));
        }
    }

    @Override
    public List<ChatEvent> of(ChatId chatId) {
        if (reachability.reachable()) {
            try {
                List<String> encoded = redis.commands().lrange(key(chatId), 0, -1);
                List<ChatEvent> events = new ArrayList<>(encoded.size());
                for (String event : encoded) {
                    events.add(decode(event));
                }
                return events;
            } catch (RuntimeException e) {
                reachability.failed(e);
            }
        }
        return local.of(chatId);
    }

    private void watch(RedisFuture<?> command) {
        command.whenComplete((result, failure) -> {
            if (failure instanceof Exception e) {
                reachability.failed(e);
            }
        });
    }

    static String key(ChatId chatId) {
        // the chat's hash tag, as its lane's keys
        return "crs:chat:{" + chatId + "}:reply";
    }

    private static String encode(ChatEvent event) {
        return event.seq() + " " + event.json();
    }

    private static ChatEvent decode(String encoded) {
        int space = encoded.indexOf(' ');
        return new ChatEvent(Long.parseLong(encoded.substring(0, space)), encoded.substring(space + 1));
    }
}
