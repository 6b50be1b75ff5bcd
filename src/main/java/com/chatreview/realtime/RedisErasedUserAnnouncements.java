package com.chatreview.realtime;

import com.chatreview.chat.ChatId;
import com.chatreview.realtime.ErasedUserConnections.ErasedUser;
import com.chatreview.redis.Redis;
import com.chatreview.tenancy.TenantId;
import io.lettuce.core.RedisException;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import java.util.List;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.json.JsonMapper;

/**
 * Erasures across a cluster: a message on a channel every node listens to. A node that misses it (Redis unreachable
 * for a moment) still holds no connection on the user's chats for long: the erasure does not erase a chat with a
 * connection open anywhere, and runs again until none is.
 */
class RedisErasedUserAnnouncements implements ErasedUserAnnouncements, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(RedisErasedUserAnnouncements.class);
    private static final String CHANNEL = "crs:erased-users";

    /** What goes over the channel. */
    record Announcement(UUID tenantId, String userId, List<UUID> chats, String node) {}

    private final Redis redis;
    private final JsonMapper json;
    private final String node = UUID.randomUUID().toString();
    private final StatefulRedisPubSubConnection<String, String> subscription;

    /** @param elsewhere told of each user erased on another node, on a thread of its own */
    RedisErasedUserAnnouncements(Redis redis, JsonMapper json, Consumer<ErasedUser> elsewhere) {
        this.redis = redis;
        this.json = json;
        this.subscription = redis.pubSubConnection();
        subscription.addListener(new RedisPubSubAdapter<>() {
            @Override
            public void message(String channel, String message) {
                Announcement announced = json.readValue(message, Announcement.class);
                if (!node.equals(announced.node())) {
                    ErasedUser erased = new ErasedUser(
                            TenantId.of(announced.tenantId()),
                            announced.userId(),
                            announced.chats().stream().map(ChatId::of).collect(Collectors.toUnmodifiableSet()));
                    Thread.ofVirtual().name("user-erased").start(() -> elsewhere.accept(erased));
                }
            }
        });
        subscription.sync().subscribe(CHANNEL);
    }

    @Override
    public void announce(ErasedUser erased) {
        try {
            redis.commands()
                    .publish(
                            CHANNEL,
                            json.writeValueAsString(new Announcement(
                                    erased.tenantId().value(),
                                    erased.userId(),
                                    erased.chats().stream().map(ChatId::value).toList(),
                                    node)));
        } catch (RedisException failed) {
            log.warn(
                    "Redis does not answer ({}): other nodes keep an erased user's connections open until the"
                            + " erasure runs again",
                    failed.toString());
        }
    }

    @Override
    public void close() {
        subscription.close();
    }
}
