package com.chatreview.realtime;

import com.chatreview.chat.ChatsById;
import com.chatreview.conversation.Conversations;
import com.chatreview.conversation.ErrorCode;
import com.chatreview.conversation.EventJson;
import com.chatreview.conversation.ServerEvent;
import com.chatreview.database.DatabaseReachability;
import com.chatreview.kernel.ServiceUnavailable;
import com.chatreview.ratelimit.RateLimitDecision;
import com.chatreview.ratelimit.RequestQuotas;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.stereotype.Component;
import org.springframework.web.socket.BinaryMessage;
import org.springframework.web.socket.CloseStatus;
import org.springframework.web.socket.TextMessage;
import org.springframework.web.socket.WebSocketSession;
import org.springframework.web.socket.handler.AbstractWebSocketHandler;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code /ws/chat} (docs/api.md, The WebSocket) and every other {@link ChatAccess} path: the upgrade always succeeds,
 * then the path's access decides who the connection acts for, so that a refusal can be told as an {@code error} event
 * before the close. Accepted frames go to the chat's reply queue.
 */
@Component
class ChatSocketHandler extends AbstractWebSocketHandler {

    /** What a frame refused by a full queue is told to wait: about one short reply. */
    static final Duration QUEUE_FULL_RETRY_AFTER = Duration.ofSeconds(2);

    private static final Logger log = LoggerFactory.getLogger(ChatSocketHandler.class);

    static final CloseStatus UNAUTHORIZED = new CloseStatus(4401, "AUTH_ERROR");
    static final CloseStatus CHAT_NOT_FOUND = new CloseStatus(4404, "CHAT_NOT_FOUND");
    static final CloseStatus TOO_MANY_CONNECTIONS = new CloseStatus(4429, "CONNECTION_LIMIT_EXCEEDED");
    static final CloseStatus RATE_LIMITED = new CloseStatus(4429, "RATE_LIMITED");
    static final CloseStatus ORIGIN_NOT_ALLOWED = new CloseStatus(4403, "ORIGIN_NOT_ALLOWED");
    private static final String CONNECTION = Connection.class.getName();
    private static final String EXPIRY = CONNECTION + ".expiry";
    /** When to come back while the database (or Redis) is unreachable. */
    private static final Duration DEPENDENCY_RETRY_AFTER = Duration.ofSeconds(1);

    private final Map<String, ChatAccess> accesses = new LinkedHashMap<>();
    private final ChatsById chats;
    private final RequestQuotas quotas;
    private final ConnectionRegistry connections;
    private final Conversations conversations;
    private final RealtimeSettings settings;
    private final EventJson json;
    private final JsonMapper mapper;
    private final RealtimeMetrics metrics;
    private volatile boolean shuttingDown;
    /** Handshakes under way; each asks the database once (ChatManagement.enter), the pool is not queued for. */
    private final Semaphore handshakes;
    /** Closes connections whose embed token expires while they are open; its thread is a daemon. */
    private final ScheduledThreadPoolExecutor expiries = expiries();

    ChatSocketHandler(
            List<ChatAccess> accesses,
            ChatsById chats,
            RequestQuotas quotas,
            ConnectionRegistry connections,
            Conversations conversations,
            RealtimeSettings settings,
            EventJson json,
            JsonMapper mapper,
            RealtimeMetrics metrics) {
        accesses.forEach(access -> this.accesses.put(access.path(), access));
        this.chats = chats;
        this.quotas = quotas;
        this.connections = connections;
        this.conversations = conversations;
        this.settings = settings;
        this.mapper = mapper;
        this.json = json;
        this.metrics = metrics;
        this.handshakes = new Semaphore(Math.max(1, settings.handshakeConcurrency()));
    }

    @Override
    public void afterConnectionEstablished(WebSocketSession session) {
        ConnectionRequest request = ConnectionRequest.of(session);
        Long resumeFrom = resumeFrom(request);
        if (shuttingDown) {
            refuse(session, ErrorCode.INTERNAL_ERROR.event("The service is shutting down"), CloseStatus.GOING_AWAY);
            return;
        }
        Admission admission;
        if (!awaitHandshakeTurn()) {
            comeBackLater(session, "The service admits no more connections right now", settings.handshakeRetryAfter());
            return;
        }
        try {
            admission = admit(session, request);
        } catch (DataAccessException | ServiceUnavailable unreachable) {
            log.warn("A connection could not be admitted: {}", unreachable.toString());
            comeBackLater(session, DatabaseReachability.whyUnavailable(unreachable), DEPENDENCY_RETRY_AFTER);
            return;
        } catch (RuntimeException failure) {
            if (!DatabaseReachability.isOutage(failure)) {
                throw failure;
            }
            // a transaction that could not begin, say: not a DataAccessException, still the database's outage
            log.warn("A connection could not be admitted: {}", failure.toString());
            comeBackLater(session, DatabaseReachability.whyUnavailable(failure), DEPENDENCY_RETRY_AFTER);
            return;
        } finally {
            handshakes.release();
        }
        if (admission instanceof Admission.Refused refused) {
            refuse(session, refused);
            return;
        }
        if (admission instanceof Admission.Throttled throttled) {
            refuse(
                    session,
                    ErrorCode.RATE_LIMITED.event(
                            "Too many failed authentications from this address in the last minute",
                            Map.of(
                                    "retry_after_ms",
                                    Math.max(1, throttled.retryAfter().toMillis()),
                                    "fix",
                                    "Wait retry_after_ms, then connect with a valid key.")),
                    RATE_LIMITED);
            return;
        }
        Admission.Admitted admitted = (Admission.Admitted) admission;
        Connection connection =
                new Connection(session, admitted, json, settings.sendBuffer().toBytes(), settings.sendTimeLimit());
        boolean byLink = connection.apiKeyId == null;
        // the chat page's connections have an allowance of their own: links cannot crowd out the tenant's backend
        int limit = byLink
                ? quotas.settings().chatUiConnectionsPerTenant()
                : quotas.settings().wsConnectionsPerTenant();
        int linkLimit = quotas.settings().wsLinkConnectionsPerChat();
        ConnectionRegistry.Opening opening = connections.tryOpen(connection, limit, linkLimit);
        if (opening != ConnectionRegistry.Opening.OPENED) {
            ServerEvent refusal = opening == ConnectionRegistry.Opening.TENANT_FULL
                    ? ErrorCode.CONNECTION_LIMIT_EXCEEDED.event(
                            byLink
                                    ? "The tenant's chat pages already have " + limit + " open connections"
                                    : "The tenant already has " + limit + " open connections",
                            byLink
                                    ? Map.of(
                                            "limit",
                                            limit,
                                            "fix",
                                            "Close chat pages the tenant no longer uses, or ask the operator for a"
                                                    + " higher LIMIT_CHAT_UI_CONNECTIONS_PER_TENANT.")
                                    : Map.of("limit", limit))
                    : ErrorCode.CONNECTION_LIMIT_EXCEEDED.event(
                            "The chat already has " + linkLimit + " connections opened by its link",
                            Map.of(
                                    "limit",
                                    linkLimit,
                                    "fix",
                                    "Close other pages of this chat, or ask the operator for a higher"
                                            + " LIMIT_WS_LINK_CONNECTIONS_PER_CHAT."));
            connection.closed();
            refuse(session, refusal, TOO_MANY_CONNECTIONS);
            return;
        }
        session.getAttributes().put(CONNECTION, connection);
        metrics.connectionOpened(connection);
        if (connection.validUntil != null) {
            long delay = Math.max(
                    0, Duration.between(Instant.now(), connection.validUntil).toMillis());
            session.getAttributes()
                    .put(EXPIRY, expiries.schedule(() -> expire(connection), delay, TimeUnit.MILLISECONDS));
        }
        boolean newUser = admitted.userCreated();
        // after the connection registered: whatever the fan-out hands it from now on, it gets live
        Conversations.Watch watch = conversations.watch(connection.chatId, admitted.latestEventSeq());
        long lastSeq = watch.lastSeq();
        connection.sendDirect(new ServerEvent.ConnectionEstablished(
                Instant.now(), connection.userId, connection.chatId, connection.tenantId.value(), lastSeq));
        if (newUser) {
            connection.sendDirect(new ServerEvent.UserCreated(Instant.now(), connection.userId));
        }
        if (resumeFrom != null) {
            connection.startAfter(resumeFrom);
            connection.hold(watch.replyInProgress());
            if (!conversations.replayStoredAfter(connection.chatId, resumeFrom, connection::sendMissed)) {
                return;
            }
        } else {
            connection.startAfter(lastSeq);
        }
        connection.goLive();
    }

    private boolean awaitHandshakeTurn() {
        try {
            return handshakes.tryAcquire(settings.handshakeWait().toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * docs/api.md, The WebSocket: {@code SERVICE_UNAVAILABLE} with {@code details.retry_after_ms}, then 1013; at once,
     * so that a storm of reconnects is spread out rather than queued (never 1011, which clients would retry at once).
     */
    private void comeBackLater(WebSocketSession session, String why, Duration retryAfter) {
        refuse(
                session,
                ErrorCode.SERVICE_UNAVAILABLE.event(
                        why,
                        Map.of(
                                "retry_after_ms",
                                retryAfter.toMillis(),
                                "fix",
                                "Connect again after retry_after_ms (give or take half of it), then double the wait"
                                        + " at each try, up to 30 s and 6 tries.")),
                CloseStatus.SERVICE_OVERLOAD);
    }

    @Override
    protected void handleTextMessage(WebSocketSession session, TextMessage message) {
        Connection connection = (Connection) session.getAttributes().get(CONNECTION);
        if (connection == null) {
            return;
        }
        connection.frameReceived();
        metrics.frameReceived(connection.tenantId);
        RateLimitDecision decision = quotas.webSocketFrame(connection.id);
        if (!decision.allowed()) {
            long retryAfterMs = Math.max(1, decision.retryAfter().toMillis());
            metrics.frameRefused(connection.tenantId, ErrorCode.RATE_LIMITED);
            connection.sendDirect(ErrorCode.RATE_LIMITED.event(
                    "More than " + decision.limit() + " frames in a second; this frame was dropped",
                    Map.of("retry_after_ms", retryAfterMs)));
            return;
        }
        if (message.getPayloadLength() > settings.maxFrame().toBytes()) {
            metrics.frameRefused(connection.tenantId, ErrorCode.INVALID_MESSAGE);
            connection.sendDirect(ErrorCode.INVALID_MESSAGE.event(
                    "The frame is larger than " + settings.maxFrame().toBytes() + " bytes"));
            return;
        }
        Frame.Result parsed = Frame.parse(message.getPayload());
        if (parsed.frame().isEmpty()) {
            metrics.frameRefused(connection.tenantId, ErrorCode.INVALID_MESSAGE);
            connection.sendDirect(ErrorCode.INVALID_MESSAGE.event(String.valueOf(parsed.problem())));
            return;
        }
        if (shuttingDown) {
            metrics.frameRefused(connection.tenantId, "shutting_down");
            connection.sendDirect(ErrorCode.INTERNAL_ERROR.event("The service is shutting down; send it again later"));
            return;
        }
        Frame frame = parsed.frame().get();
        try {
            boolean queued = conversations.ask(
                    new ConnectionAsker(connection, metrics), frame.question(), settings.maxQueuedFrames());
            if (!queued) {
                metrics.frameRefused(connection.tenantId, "queue_full");
                connection.sendDirect(ErrorCode.RATE_LIMITED.event(
                        "The chat already has " + settings.maxQueuedFrames()
                                + " messages waiting for their replies; this one was not stored",
                        Map.of(
                                "retry_after_ms",
                                QUEUE_FULL_RETRY_AFTER.toMillis(),
                                "fix",
                                "Wait for a reply to end (message_stream_ended), then send it again.")));
            }
        } catch (ServiceUnavailable unavailable) {
            metrics.frameRefused(connection.tenantId, ErrorCode.of(unavailable.code()));
            connection.sendDirect(ErrorCode.event(unavailable));
        } catch (RuntimeException e) {
            // the cluster's lanes (Redis) did not answer: nothing was stored, the client must know
            log.error("A frame for chat {} could not join the chat's lane", connection.chatId, e);
            metrics.frameRefused(connection.tenantId, ErrorCode.INTERNAL_ERROR);
            connection.sendDirect(ErrorCode.INTERNAL_ERROR.event(
                    "The message could not be queued; nothing was stored. Send it again."));
        }
    }

    @Override
    protected void handleBinaryMessage(WebSocketSession session, BinaryMessage message) {
        Connection connection = (Connection) session.getAttributes().get(CONNECTION);
        if (connection != null) {
            connection.frameReceived();
            metrics.frameReceived(connection.tenantId);
            metrics.frameRefused(connection.tenantId, ErrorCode.INVALID_MESSAGE);
            connection.sendDirect(ErrorCode.INVALID_MESSAGE.event("Binary frames are not accepted; send text JSON"));
        }
    }

    @Override
    public void handleTransportError(WebSocketSession session, Throwable exception) {
        Connection connection = (Connection) session.getAttributes().get(CONNECTION);
        if (connection != null) {
            connection.closed();
            connections.closed(connection);
        }
    }

    private static ScheduledThreadPoolExecutor expiries() {
        ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(
                1, Thread.ofVirtual().name("ws-expiries").factory());
        executor.setRemoveOnCancelPolicy(true); // a closed connection's expiry goes, and the connection with it
        return executor;
    }

    /** The embed token that let the connection in has expired: the page must be opened again with a new link. */
    private static void expire(Connection connection) {
        if (connection.open()) {
            connection.sendDirect(ErrorCode.AUTH_ERROR.event(
                    "The embed token expired",
                    Map.of("fix", "Open the chat again with a new link from the site that showed it.")));
            connection.close(UNAUTHORIZED);
        }
    }

    @Override
    public void afterConnectionClosed(WebSocketSession session, CloseStatus status) {
        if (session.getAttributes().remove(EXPIRY) instanceof ScheduledFuture<?> expiry) {
            expiry.cancel(false);
        }
        Connection connection = (Connection) session.getAttributes().remove(CONNECTION);
        if (connection != null) {
            connection.closed();
            connections.closed(connection);
            metrics.connectionClosed(connection);
        }
    }

    void shuttingDown() {
        shuttingDown = true;
    }

    private void refuse(WebSocketSession session, ServerEvent error, CloseStatus status) {
        try {
            session.sendMessage(new TextMessage(json.write(error)));
            session.close(status);
        } catch (Exception e) {
            // the client left first
        }
    }

    /** The access of the path the connection was opened on. */
    private Admission admit(WebSocketSession raw, ConnectionRequest request) {
        ChatAccess access =
                raw.getUri() == null ? null : accesses.get(raw.getUri().getPath());
        if (access == null) {
            return Admission.refused(Admission.Reason.UNAUTHORIZED, "No way into a chat is served at this path");
        }
        return access.admit(request);
    }

    private void refuse(WebSocketSession session, Admission.Refused refused) {
        Map<String, Object> fix = refused.fix() == null ? Map.of() : Map.of("fix", refused.fix());
        switch (refused.reason()) {
            case UNAUTHORIZED -> refuse(session, ErrorCode.AUTH_ERROR.event(refused.message(), fix), UNAUTHORIZED);
            case CHAT_NOT_FOUND ->
                refuse(session, ErrorCode.CHAT_NOT_FOUND.event(refused.message(), fix), CHAT_NOT_FOUND);
            case ORIGIN_NOT_ALLOWED ->
                refuse(session, ErrorCode.ORIGIN_NOT_ALLOWED.event(refused.message(), fix), ORIGIN_NOT_ALLOWED);
        }
    }

    /** {@code resume_from} (or {@code X-Resume-From}); a value that is not a number is ignored. */
    private static @Nullable Long resumeFrom(ConnectionRequest request) {
        String value = request.value("X-Resume-From", "resume_from");
        if (value == null) {
            return null;
        }
        try {
            return Math.max(0, Long.parseLong(value));
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
