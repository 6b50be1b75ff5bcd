package com.chatreview.realtime;

import com.chatreview.assistant.Assistant;
import com.chatreview.chat.ChatDeletionGuard;
import com.chatreview.chat.ChatManagement;
import com.chatreview.ratelimit.RequestQuotas;
import com.chatreview.redis.ConditionalOnRedis;
import com.chatreview.redis.Redis;
import com.chatreview.redis.RedisReachability;
import com.chatreview.tenancy.ApiKeyRevoked;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;
import org.springframework.transaction.support.TransactionTemplate;
import org.springframework.web.socket.CloseStatus;
import org.springframework.web.socket.config.annotation.EnableWebSocket;
import org.springframework.web.socket.config.annotation.WebSocketConfigurer;
import org.springframework.web.socket.config.annotation.WebSocketHandlerRegistry;
import org.springframework.web.socket.server.jetty.JettyRequestUpgradeStrategy;
import org.springframework.web.socket.server.support.DefaultHandshakeHandler;
import tools.jackson.databind.json.JsonMapper;

/**
 * Wires {@code /ws/chat} (and every other {@link ChatAccess} path, such as the chat page's): its handler, the in-process registry, queue and fan-out, the pings and idle closes,
 * the closing of connections whose key was revoked, and the graceful shutdown.
 */
@Configuration(proxyBeanMethods = false)
@EnableWebSocket
class RealtimeConfiguration implements WebSocketConfigurer {

    private static final Logger log = LoggerFactory.getLogger(RealtimeConfiguration.class);

    /** The largest frame Jetty lets through to the handler; the handler itself refuses those over 64 KiB. */
    private static final long LARGEST_FRAME = 1024 * 1024;

    private final ChatSocketHandler handler;
    private final RealtimeSettings settings;
    private final List<String> paths;

    RealtimeConfiguration(ChatSocketHandler handler, RealtimeSettings settings, List<ChatAccess> accesses) {
        this.handler = handler;
        this.settings = settings;
        this.paths = accesses.stream().map(ChatAccess::path).toList();
    }

    @Override
    public void registerWebSocketHandlers(WebSocketHandlerRegistry registry) {
        registry.addHandler(handler, paths.toArray(String[]::new))
                .setHandshakeHandler(new DefaultHandshakeHandler(jettyUpgrade()))
                .addInterceptors(new ConnectionRequest.Capture())
                .setAllowedOriginPatterns("*");
    }

    /**
     * Jetty's own limits, by default 64 KiB per frame and per message, would close the connection (1009) on a frame
     * just over 64 KiB; they are raised so that such a frame reaches the handler and is answered INVALID_MESSAGE
     * while the connection stays open. Frames over {@link #LARGEST_FRAME} still close it.
     */
    private JettyRequestUpgradeStrategy jettyUpgrade() {
        JettyRequestUpgradeStrategy upgrade = new JettyRequestUpgradeStrategy();
        upgrade.addWebSocketConfigurer(jetty -> {
            jetty.setMaxFrameSize(LARGEST_FRAME);
            jetty.setMaxTextMessageSize(LARGEST_FRAME);
            jetty.setMaxBinaryMessageSize(LARGEST_FRAME);
            jetty.setIdleTimeout(settings.idleTimeout().plusMinutes(5));
        });
        return upgrade;
    }

    @Configuration(proxyBeanMethods = false)
    static class Parts {

        @Bean
        @ConditionalOnRedis.Absent
        ConnectionRegistry connectionRegistry() {
            return new InProcessConnectionRegistry();
        }

        @Bean(destroyMethod = "close")
        @ConditionalOnRedis
        RedisConnectionRegistry redisConnectionRegistry(
                Redis redis, RedisReachability reachability, RealtimeSettings settings) {
            return new RedisConnectionRegistry(redis, reachability, settings.connectionLease());
        }

        @Bean
        @ConditionalOnRedis.Absent
        ReplyQueue replyQueue() {
            return new InProcessReplyQueue();
        }

        @Bean(destroyMethod = "close")
        @ConditionalOnRedis
        RedisReplyQueue redisReplyQueue(Redis redis, RedisReachability reachability, RealtimeSettings settings) {
            return new RedisReplyQueue(redis, reachability, settings.laneLease(), settings.laneTurnGrace());
        }

        @Bean
        @ConditionalOnRedis.Absent
        ChatEventFanOut chatEventFanOut(ConnectionRegistry connections) {
            return new InProcessChatEventFanOut(connections);
        }

        @Bean(destroyMethod = "close")
        @ConditionalOnRedis
        RedisChatEventFanOut redisChatEventFanOut(
                Redis redis, RedisReachability reachability, ConnectionRegistry connections) {
            return new RedisChatEventFanOut(redis, reachability, connections);
        }

        @Bean
        EventJson eventJson(JsonMapper json) {
            return new EventJson(json);
        }

        @Bean
        EventSequence eventSequence(ChatManagement chats) {
            return new EventSequence(chats);
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
        RedisOwedReplies redisOwedReplies(Redis redis, RedisReachability reachability, RealtimeSettings settings) {
            return new RedisOwedReplies(redis, reachability, settings.laneLease());
        }

        @Bean(destroyMethod = "close")
        @ConditionalOnRedis
        ReplyTakeovers replyTakeovers(
                RedisOwedReplies owed, ReplyQueue queue, Replies replies, RealtimeSettings settings) {
            return new ReplyTakeovers(owed, queue, replies, settings.laneLease());
        }

        @Bean
        Replies replies(
                ChatManagement chats,
                Assistant assistant,
                ChatEventFanOut fanOut,
                EventSequence sequence,
                StreamsInProgress streams,
                OwedReplies owed,
                List<ChatContextSource> contextSources,
                RealtimeSettings settings,
                TransactionTemplate transaction,
                EventJson json) {
            return new Replies(
                    chats,
                    assistant,
                    fanOut,
                    sequence,
                    streams,
                    owed,
                    contextSources,
                    settings.historyMessages(),
                    transaction,
                    json);
        }

        @Bean
        AssistantTurns assistantTurns(ReplyQueue queue, Replies replies) {
            return new AssistantTurns(queue, replies);
        }

        @Bean
        ChatSocketHandler chatSocketHandler(
                List<ChatAccess> accesses,
                ChatManagement chats,
                RequestQuotas quotas,
                ConnectionRegistry connections,
                ReplyQueue queue,
                Replies replies,
                EventSequence sequence,
                StreamsInProgress streams,
                ChatEventFanOut fanOut,
                RealtimeSettings settings,
                EventJson json,
                JsonMapper mapper) {
            return new ChatSocketHandler(
                    accesses,
                    chats,
                    quotas,
                    connections,
                    queue,
                    replies,
                    sequence,
                    streams,
                    fanOut,
                    settings,
                    json,
                    mapper);
        }

        /** A chat with an open connection or a reply in progress is not deleted (decisions §5). */
        @Bean
        ChatDeletionGuard openConnectionsGuard(ConnectionRegistry connections, ReplyQueue queue) {
            return chatId -> {
                if (connections.anyOpen(chatId)) {
                    return Optional.of("a WebSocket connection is open on it");
                }
                if (queue.busy(chatId)) {
                    return Optional.of("a reply is being generated");
                }
                return Optional.empty();
            };
        }

        @Bean
        ConnectionKeeper connectionKeeper(
                ConnectionRegistry connections,
                ReplyQueue queue,
                OwedReplies owed,
                ChatSocketHandler handler,
                RealtimeSettings settings) {
            return new ConnectionKeeper(connections, queue, owed, handler, settings);
        }
    }

    /**
     * Pings every connection, closes idle ones, closes those of a revoked key, and on shutdown lets the replies in
     * progress be stored and closes every connection with 1001: on a single node after the replies (their clients
     * watch them to the end), in a cluster before them (the clients resume on another node, where the replies
     * still stream), handing over to the other nodes what is unfinished after the grace.
     */
    static class ConnectionKeeper implements SmartLifecycle {

        /** How long the replies handed over get to stop here before the node goes on stopping. */
        private static final Duration HAND_OVER_GRACE = Duration.ofSeconds(5);

        private final ConnectionRegistry connections;
        private final ReplyQueue queue;
        private final OwedReplies owed;
        private final ChatSocketHandler handler;
        private final RealtimeSettings settings;
        private ScheduledExecutorService timer;
        private volatile boolean running;

        ConnectionKeeper(
                ConnectionRegistry connections,
                ReplyQueue queue,
                OwedReplies owed,
                ChatSocketHandler handler,
                RealtimeSettings settings) {
            this.connections = connections;
            this.queue = queue;
            this.owed = owed;
            this.handler = handler;
            this.settings = settings;
        }

        @Override
        public void start() {
            timer = Executors.newSingleThreadScheduledExecutor(
                    Thread.ofVirtual().name("ws-keeper").factory());
            long every = settings.pingInterval().toMillis();
            timer.scheduleWithFixedDelay(this::pingAndSweep, every, every, TimeUnit.MILLISECONDS);
            running = true;
        }

        void pingAndSweep() {
            Instant idleSince = Instant.now().minus(settings.idleTimeout());
            for (Connection connection : connections.all()) {
                if (!connection.open()) {
                    connections.closed(connection);
                } else if (connection.lastFrameAt().isBefore(idleSince)) {
                    connection.close(CloseStatus.NORMAL.withReason("idle"));
                } else {
                    connection.ping();
                }
            }
        }

        @EventListener
        void keyRevoked(ApiKeyRevoked revoked) {
            for (Connection connection : connections.all()) {
                if (revoked.apiKeyId().equals(connection.apiKeyId)) {
                    connection.sendDirect(ErrorCode.AUTH_ERROR.event("The API key was revoked"));
                    connection.close(ChatSocketHandler.UNAUTHORIZED);
                }
            }
        }

        @Override
        public void stop() {
            handler.shuttingDown();
            if (owed.othersTakeOver()) {
                closeAll();
            }
            try {
                if (!queue.awaitIdle(settings.shutdownGrace())) {
                    if (owed.othersTakeOver()) {
                        log.warn(
                                "Replies still running after {}; handing them over to the other nodes",
                                settings.shutdownGrace());
                        owed.handOver();
                        queue.awaitIdle(HAND_OVER_GRACE);
                    } else {
                        log.warn(
                                "Replies still running after {}; closing connections anyway", settings.shutdownGrace());
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            closeAll();
            timer.shutdownNow();
            running = false;
        }

        private void closeAll() {
            for (Connection connection : connections.all()) {
                connection.close(CloseStatus.GOING_AWAY);
            }
        }

        @Override
        public boolean isRunning() {
            return running;
        }

        /** Stops before the web server does, so that connections close with 1001 while it still runs. */
        @Override
        public int getPhase() {
            return Integer.MAX_VALUE - 100;
        }
    }
}
