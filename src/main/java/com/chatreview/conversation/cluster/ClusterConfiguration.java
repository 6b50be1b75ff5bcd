package com.chatreview.conversation.cluster;

import com.chatreview.conversation.ChatListeners;
import com.chatreview.conversation.ConversationSettings;
import com.chatreview.redis.ConditionalOnRedis;
import com.chatreview.redis.Redis;
import com.chatreview.redis.RedisReachability;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Picks the implementation of each part of the conversation that must hold across nodes (the reply lanes, the
 * fan-out of a chat's events, the streams in progress, the owed replies): in-process on a single
 * node, on Redis in a cluster.
 */
@Configuration(proxyBeanMethods = false)
class ClusterConfiguration {

    @Bean
    @ConditionalOnRedis.Absent
    ReplyQueue replyQueue() {
        return new InProcessReplyQueue();
    }

    @Bean(destroyMethod = "close")
    @ConditionalOnRedis
    RedisReplyQueue redisReplyQueue(Redis redis, RedisReachability reachability, ConversationSettings settings) {
        return new RedisReplyQueue(redis, reachability, settings.laneLease(), settings.laneTurnGrace());
    }

    @Bean
    @ConditionalOnRedis.Absent
    ChatEventFanOut chatEventFanOut(ChatListeners listeners) {
        return new InProcessChatEventFanOut(listeners);
    }

    @Bean(destroyMethod = "close")
    @ConditionalOnRedis
    RedisChatEventFanOut redisChatEventFanOut(Redis redis, RedisReachability reachability, ChatListeners listeners) {
        return new RedisChatEventFanOut(redis, reachability, listeners);
    }

    @Bean
    @ConditionalOnRedis.Absent
    StreamsInProgress streamsInProgress() {
        return new InProcessStreamsInProgress();
    }

    @Bean
    @ConditionalOnRedis
    StreamsInProgress redisStreamsInProgress(Redis redis, RedisReachability reachability) {
        return new RedisStreamsInProgress(redis, reachability);
    }

    @Bean
    @ConditionalOnRedis.Absent
    OwedReplies owedReplies() {
        return OwedReplies.NONE;
    }

    @Bean(destroyMethod = "close")
    @ConditionalOnRedis
    RedisOwedReplies redisOwedReplies(Redis redis, RedisReachability reachability, ConversationSettings settings) {
        return new RedisOwedReplies(redis, reachability, settings.laneLease());
    }
}
