package com.chatreview.realtime;

import com.chatreview.chat.Chat;
import com.chatreview.chat.ChatManagement;
import com.chatreview.chat.ChatMessage;
import com.chatreview.chat.SenderRole;
import com.chatreview.ratelimit.RateLimitDecision;
import com.chatreview.ratelimit.RequestQuotas;
import com.chatreview.tenancy.Tenancy;
import com.chatreview.tenancy.Tenant;
import com.chatreview.web.Ids;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.springframework.web.socket.BinaryMessage;
import org.springframework.web.socket.CloseStatus;
import org.springframework.web.socket.TextMessage;
import org.springframework.web.socket.WebSocketSession;
import org.springframework.web.socket.handler.AbstractWebSocketHandler;
import org.springframework.web.socket.handler.ConcurrentWebSocketSessionDecorator;
import org.springframework.web.util.UriComponentsBuilder;

/**
 * {@code /ws/chat} (decisions §6): the upgrade always succeeds, then the connection is authenticated so that a
 * failure can be told as an {@code error} event before the close. Accepted frames go to the chat's reply queue.
 */
class ChatSocketHandler extends AbstractWebSocketHandler {

    static final CloseStatus UNAUTHORIZED = new CloseStatus(4401, "AUTH_ERROR");
    static final CloseStatus CHAT_NOT_FOUND = new CloseStatus(4404, "CHAT_NOT_FOUND");
    static final CloseStatus TOO_MANY_CONNECTIONS = new CloseStatus(4429, "CONNECTION_LIMIT_EXCEEDED");
    private static final String CONNECTION = Connection.class.getName();
    private static final int RESUME_BATCH = 1000;

    private final Tenancy tenancy;
    private final ChatManagement chats;
    private final RequestQuotas quotas;
    private final ConnectionRegistry connections;
    private final ReplyQueue queue;
    private final Replies replies;
    private final EventSequence sequence;
    private final StreamsInProgress streams;
    private final RealtimeSettings settings;
    private volatile boolean shuttingDown;

    ChatSocketHandler(
            Tenancy tenancy,
            ChatManagement chats,
            RequestQuotas quotas,
            ConnectionRegistry connections,
            ReplyQueue queue,
            Replies replies,
            EventSequence sequence,
            StreamsInProgress streams,
            RealtimeSettings settings) {
        this.tenancy = tenancy;
        this.chats = chats;
        this.quotas = quotas;
        this.connections = connections;
        this.queue = queue;
        this.replies = replies;
        this.sequence = sequence;
        this.streams = streams;
        this.settings = settings;
    }

    @Override
    public void afterConnectionEstablished(WebSocketSession raw) {
        WebSocketSession session = new ConcurrentWebSocketSessionDecorator(
                raw,
                (int) settings.sendTimeLimit().toMillis(),
                (int) settings.sendBuffer().toBytes(),
                ConcurrentWebSocketSessionDecorator.OverflowStrategy.TERMINATE);
        Parameters parameters = Parameters.of(raw);
        if (shuttingDown) {
            refuse(session, ErrorCode.INTERNAL_ERROR.event("The service is shutting down"), CloseStatus.GOING_AWAY);
            return;
        }
        String missing = parameters.missing();
        if (missing != null) {
            refuse(session, ErrorCode.AUTH_ERROR.event(missing + " is missing"), UNAUTHORIZED);
            return;
        }
        Optional<Tenant> tenant = tenancy.authenticate(parameters.apiKey());
        if (tenant.isEmpty()) {
            refuse(session, ErrorCode.AUTH_ERROR.event("The API key is not valid"), UNAUTHORIZED);
            return;
        }
        Optional<Chat> chat = Ids.uuid(parameters.chatId())
                .flatMap(id -> chats.find(tenant.get().id(), id));
        if (chat.isEmpty()) {
            refuse(
                    session,
                    ErrorCode.CHAT_NOT_FOUND.event("No chat with id '" + parameters.chatId() + "'"),
                    CHAT_NOT_FOUND);
            return;
        }
        Connection connection = new Connection(
                session,
                tenant.get().id(),
                tenant.get().apiKeyId(),
                parameters.userId(),
                chat.get().id());
        int limit = quotas.settings().wsConnectionsPerTenant();
        if (!connections.tryOpen(connection, limit)) {
            refuse(
                    session,
                    ErrorCode.CONNECTION_LIMIT_EXCEEDED.event(
                            "The tenant already has " + limit + " open connections", Map.of("limit", limit)),
                    TOO_MANY_CONNECTIONS);
            return;
        }
        raw.getAttributes().put(CONNECTION, connection);
        boolean newUser = chats.ensureUser(connection.tenantId, connection.userId);
        long lastSeq = sequence.latest(connection.chatId, chats.latestEventSeq(connection.chatId));
        Map<String, Object> established = ChatEvent.of("connection_established");
        established.put("user_id", connection.userId);
        established.put("chat_id", connection.chatId.toString());
        established.put("tenant_id", connection.tenantId.toString());
        established.put("last_seq", lastSeq);
        connection.sendDirect(established);
        if (newUser) {
            Map<String, Object> created = ChatEvent.of("user_created");
            created.put("user_id", connection.userId);
            connection.sendDirect(created);
        }
        if (parameters.resumeFrom() != null) {
            connection.startAfter(parameters.resumeFrom());
            connection.catchUp(missedSince(connection.chatId, parameters.resumeFrom()));
        } else {
            connection.startAfter(lastSeq);
            connection.catchUp(List.of());
        }
    }

    @Override
    protected void handleTextMessage(WebSocketSession session, TextMessage message) {
        Connection connection = (Connection) session.getAttributes().get(CONNECTION);
        if (connection == null) {
            return;
        }
        connection.frameReceived();
        RateLimitDecision decision = quotas.webSocketFrame(connection.id);
        if (!decision.allowed()) {
            long retryAfterMs = Math.max(1, decision.retryAfter().toMillis());
            connection.sendDirect(ErrorCode.RATE_LIMITED.event(
                    "More than " + decision.limit() + " frames in a second; this frame was dropped",
                    Map.of("retry_after_ms", retryAfterMs)));
            return;
        }
        if (message.getPayloadLength() > settings.maxFrame().toBytes()) {
            connection.sendDirect(ErrorCode.INVALID_MESSAGE.event(
                    "The frame is larger than " + settings.maxFrame().toBytes() + " bytes"));
            return;
        }
        Frame.Result parsed = Frame.parse(message.getPayload());
        if (parsed.frame().isEmpty()) {
            connection.sendDirect(ErrorCode.INVALID_MESSAGE.event(parsed.problem()));
            return;
        }
        if (shuttingDown) {
            connection.sendDirect(ErrorCode.INTERNAL_ERROR.event("The service is shutting down; send it again later"));
            return;
        }
        Frame frame = parsed.frame().get();
        queue.submit(connection.chatId, () -> replies.answer(connection, frame));
    }

    @Override
    protected void handleBinaryMessage(WebSocketSession session, BinaryMessage message) {
        Connection connection = (Connection) session.getAttributes().get(CONNECTION);
        if (connection != null) {
            connection.frameReceived();
            connection.sendDirect(ErrorCode.INVALID_MESSAGE.event("Binary frames are not accepted; send text JSON"));
        }
    }

    @Override
    public void handleTransportError(WebSocketSession session, Throwable exception) {
        Connection connection = (Connection) session.getAttributes().get(CONNECTION);
        if (connection != null) {
            connections.closed(connection);
        }
    }

    @Override
    public void afterConnectionClosed(WebSocketSession session, CloseStatus status) {
        Connection connection = (Connection) session.getAttributes().remove(CONNECTION);
        if (connection != null) {
            connections.closed(connection);
        }
    }

    void shuttingDown() {
        shuttingDown = true;
    }

    /** Final events of the messages stored after {@code seq}, then the part of a reply in progress after it. */
    private List<ChatEvent> missedSince(UUID chatId, long seq) {
        List<ChatEvent> missed = new ArrayList<>();
        long after = seq;
        while (true) {
            List<ChatMessage> batch = chats.messagesAnnouncedAfter(chatId, after, RESUME_BATCH);
            for (ChatMessage message : batch) {
                String userId = String.valueOf(userOf(message));
                Map<String, Object> event = message.senderRole() == SenderRole.USER
                        ? Replies.messageReceived(message, userId)
                        : Replies.streamEnded(message, userId);
                event.put("timestamp", ChatEvent.timestamp(message.createdAt()));
                missed.add(ChatEvent.sequenced(message.eventSeq(), event));
                after = message.eventSeq();
            }
            if (batch.size() < RESUME_BATCH) {
                break;
            }
        }
        missed.addAll(streams.after(chatId, seq));
        return missed;
    }

    /** Who sent a user message, or whose message an assistant message answers. */
    private static Object userOf(ChatMessage message) {
        Map<?, ?> metadata = ChatEvent.JSON.readValue(message.metadata(), Map.class);
        return metadata.get(message.senderRole() == SenderRole.USER ? "user_id" : Replies.ANSWERED_USER);
    }

    private static void refuse(WebSocketSession session, Map<String, Object> error, CloseStatus status) {
        try {
            session.sendMessage(new TextMessage(ChatEvent.toJson(error)));
            session.close(status);
        } catch (Exception e) {
            // the client left first
        }
    }

    /** The connection's values: each as query parameter or header; where both come, the header wins. */
    record Parameters(String apiKey, String userId, String chatId, Long resumeFrom) {

        static Parameters of(WebSocketSession session) {
            Map<String, List<String>> query = session.getUri() == null
                    ? Map.of()
                    : UriComponentsBuilder.fromUri(session.getUri()).build().getQueryParams();
            return new Parameters(
                    value(session, query, "X-API-Key", "api_key"),
                    value(session, query, "X-User-ID", "user_id"),
                    value(session, query, "X-Chat-ID", "chat_id"),
                    resume(value(session, query, "X-Resume-From", "resume_from")));
        }

        String missing() {
            if (apiKey == null) {
                return "api_key (or the X-API-Key header)";
            }
            if (userId == null) {
                return "user_id (or the X-User-ID header)";
            }
            if (chatId == null) {
                return "chat_id (or the X-Chat-ID header)";
            }
            return null;
        }

        private static String value(
                WebSocketSession session, Map<String, List<String>> query, String header, String parameter) {
            String fromHeader = session.getHandshakeHeaders().getFirst(header);
            if (fromHeader != null && !fromHeader.isBlank()) {
                return fromHeader.strip();
            }
            List<String> values = query.get(parameter);
            if (values == null || values.isEmpty() || values.getFirst() == null) {
                return null;
            }
            String value = java.net.URLDecoder.decode(values.getFirst(), java.nio.charset.StandardCharsets.UTF_8)
                    .strip();
            return value.isEmpty() ? null : value;
        }

        private static Long resume(String value) {
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
}
