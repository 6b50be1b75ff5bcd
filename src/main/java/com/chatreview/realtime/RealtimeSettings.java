package com.chatreview.realtime;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * How WebSocket connections behave (docs/api.md, The WebSocket); how chats are answered is
 * {@code ConversationSettings}, under the same prefix.
 *
 * @param pingInterval how often the server pings every connection
 * @param idleTimeout a connection that has sent no frame for this long is closed (1000)
 * @param maxFrame the largest client frame accepted; larger is {@code INVALID_MESSAGE}
 * @param sendBuffer what may wait to be sent to one slow connection before it is closed
 * @param sendTimeLimit how long one send may take before the connection is closed
 * @param shutdownGrace how long a shutdown waits for replies in progress to be stored
 * @param connectionLease in a cluster, how long a connection's slot (counted against its tenant's cap and its chat's)
 *     outlives its node's last renewal: how long a node that died keeps its connections' slots
 *     ({@code REALTIME_CONNECTION_LEASE})
 * @param handshakeConcurrency handshakes admitted at once (each asks the database once); more are told
 *     {@code SERVICE_UNAVAILABLE} with close 1013 rather than queue for the database's pool
 *     ({@code REALTIME_HANDSHAKE_CONCURRENCY})
 * @param handshakeWait how long a handshake waits for its turn before it is told to come back
 * @param handshakeRetryAfter the {@code retry_after_ms} a handshake turned away is given
 * @param maxQueuedFrames how many client frames of one chat may wait for their reply, cluster-wide; one more is
 *     {@code RATE_LIMITED} and stored nowhere ({@code REALTIME_MAX_QUEUED_FRAMES})
 */
@ConfigurationProperties("realtime")
public record RealtimeSettings(
        @DefaultValue("25s") Duration pingInterval,
        @DefaultValue("30m") Duration idleTimeout,
        @DefaultValue("64KB") DataSize maxFrame,
        @DefaultValue("1MB") DataSize sendBuffer,
        @DefaultValue("10s") Duration sendTimeLimit,
        @DefaultValue("30s") Duration shutdownGrace,
        @DefaultValue("30s") Duration connectionLease,
        @DefaultValue("8") int handshakeConcurrency,
        @DefaultValue("50ms") Duration handshakeWait,
        @DefaultValue("250ms") Duration handshakeRetryAfter,
        @DefaultValue("5") int maxQueuedFrames) {}
