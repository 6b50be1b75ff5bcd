package com.chatreview.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.support.IntegrationTest;
import com.chatreview.support.SingleNodeToo;
import com.chatreview.support.TestDatabase;
import com.chatreview.support.TestRedis;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;

/**
 * The suite's two runs are what they say: the run on the PostgreSQL server is a cluster's node, with every
 * cross-node part on Redis (it once silently was not), and the run on the embedded defaults is a single node, with
 * none of them on Redis.
 */
@SingleNodeToo
@IntegrationTest
class NodeImplementationsTests {

    /** What must hold across nodes, by the interface that decides it, and its implementation on Redis. */
    static final Map<String, String> ON_REDIS = Map.of(
            "RateLimiter", "RedisRateLimiter",
            "KeyRevocations", "RedisKeyRevocations",
            "ChatEventFanOut", "RedisChatEventFanOut",
            "ConnectionRegistry", "RedisConnectionRegistry",
            "ReplyQueue", "RedisReplyQueue",
            "StreamsInProgress", "RedisStreamsInProgress",
            "OwedReplies", "RedisOwedReplies");

    @Autowired
    ApplicationContext context;

    @Test
    void theServerRunIsAClusterNodeAndTheEmbeddedRunASingleNode() {
        Map<String, String> implementations = implementations();

        if (TestDatabase.embedded()) {
            assertThat(implementations.keySet()).containsAll(ON_REDIS.keySet());
            assertThat(implementations.values()).noneMatch(name -> name.startsWith("Redis"));
        } else {
            // under CI=true TestRedis.url() fails the run without Redis; elsewhere the run goes on without it, loudly
            Assumptions.assumeFalse(TestRedis.url().isEmpty(), "no Redis: the server run is a single node");
            assertThat(implementations).containsAllEntriesOf(ON_REDIS);
        }
    }

    /** For each interface of {@link #ON_REDIS}, the simple names of the beans' classes that implement it. */
    private Map<String, String> implementations() {
        Map<String, String> found = new TreeMap<>();
        for (String name : context.getBeanDefinitionNames()) {
            Class<?> type = context.getType(name);
            if (type == null) {
                continue;
            }
            Deque<Class<?>> interfaces = new ArrayDeque<>();
            for (Class<?> c = type; c != null; c = c.getSuperclass()) {
                interfaces.addAll(java.util.List.of(c.getInterfaces()));
            }
            while (!interfaces.isEmpty()) {
                Class<?> implemented = interfaces.pop();
                if (ON_REDIS.containsKey(implemented.getSimpleName())) {
                    String previous = found.put(implemented.getSimpleName(), type.getSimpleName());
                    assertThat(previous)
                            .as("one implementation of " + implemented.getSimpleName())
                            .isIn(null, type.getSimpleName());
                }
                interfaces.addAll(java.util.List.of(implemented.getInterfaces()));
            }
        }
        return found;
    }
}
