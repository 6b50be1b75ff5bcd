package com.chatreview.realtime;

import com.chatreview.redis.ConditionalOnRedis;
import com.chatreview.redis.Redis;
import com.chatreview.redis.RedisReachability;
import java.util.List;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.socket.config.annotation.EnableWebSocket;
import org.springframework.web.socket.config.annotation.WebSocketConfigurer;
import org.springframework.web.socket.config.annotation.WebSocketHandlerRegistry;
import org.springframework.web.socket.server.jetty.JettyRequestUpgradeStrategy;
import org.springframework.web.socket.server.support.DefaultHandshakeHandler;
import tools.jackson.databind.json.JsonMapper;

/**
 * Registers the handler on {@code /ws/chat} and every other {@link ChatAccess} path (such as the chat page's), with
 * Jetty's frame limits, and picks the connection registry: in-process on a single node, Redis in a cluster
 * ({@link Parts}). The rest of the module are components: the handler, the pings ({@link ConnectionPings}), revoked
 * keys ({@link RevokedKeyConnections}) and the shutdown ({@link RealtimeShutdown}).
 */
@Configuration(proxyBeanMethods = false)
@EnableWebSocket
class RealtimeConfiguration implements WebSocketConfigurer {

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

    /** The connection registry: in-process without Redis, on Redis with it. */
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
        ErasedUserAnnouncements singleNodeErasedUserAnnouncements() {
            return new ErasedUserAnnouncements.SingleNode();
        }

        @Bean(destroyMethod = "close")
        @ConditionalOnRedis
        RedisErasedUserAnnouncements redisErasedUserAnnouncements(
                Redis redis, JsonMapper json, ObjectProvider<ErasedUserConnections> connections) {
            return new RedisErasedUserAnnouncements(
                    redis, json, erased -> connections.getObject().closeHere(erased));
        }
    }
}
