package com.chatreview.conversation;

import com.chatreview.conversation.cluster.RedisOwedReplies;
import com.chatreview.conversation.cluster.ReplyQueue;
import com.chatreview.redis.ConditionalOnRedis;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The takeover of replies a node that stopped was answering (in a cluster only: a single node owes nothing). */
@Configuration(proxyBeanMethods = false)
class ConversationConfiguration {

    @Bean(destroyMethod = "close")
    @ConditionalOnRedis
    ReplyTakeovers replyTakeovers(
            RedisOwedReplies owed, ReplyQueue queue, Replies replies, ConversationSettings settings) {
        return new ReplyTakeovers(owed, queue, replies, settings.laneLease());
    }
}
