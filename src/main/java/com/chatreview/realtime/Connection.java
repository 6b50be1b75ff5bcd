package com.chatreview.realtime;

import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.web.socket.CloseStatus;
import org.springframework.web.socket.PingMessage;
import org.springframework.web.socket.TextMessage;
import org.springframework.web.socket.WebSocketSession;

/**
 * One authenticated WebSocket connection on a chat. Events reach it in {@code seq} order, each once: while it
 * catches up on what it missed ({@code resume_from}) live events wait in a buffer, then everything is sent in
 * {@code seq} order and anything at or below the last sent {@code seq} is dropped.
 */
final class Connection {

    private static final Logger log = LoggerFactory.getLogger(Connection.class);

    final String id = UUID.randomUUID().toString();
    final WebSocketSession session;
    final UUID tenantId;
    final UUID apiKeyId;
    final String userId;
    final UUID chatId;
    /** When what let the connection in expires (an embed token); {@code null}: never. */
    final Instant validUntil;

    private final EventJson json;
    private volatile Instant lastFrameAt = Instant.now();
    private long lastSentSeq;
    private List<ChatEvent> waiting = new ArrayList<>();

    Connection(WebSocketSession session, Admission.Admitted admitted, EventJson json) {
        this.session = session;
        this.json = json;
        this.tenantId = admitted.tenantId();
        this.apiKeyId = admitted.apiKeyId();
        this.userId = admitted.userId();
        this.chatId = admitted.chatId();
        this.validUntil = admitted.validUntil();
    }

    /** A chat event: sent now, or kept until the connection has caught up. */
    synchronized void deliver(ChatEvent event) {
        if (waiting != null) {
            waiting.add(event);
        } else if (event.seq() > lastSentSeq) {
            lastSentSeq = event.seq();
            send(event.json());
        }
    }

    /** Sends what the connection missed and what arrived meanwhile, in seq order, then goes live. */
    synchronized void catchUp(List<ChatEvent> missed) {
        List<ChatEvent> all = new ArrayList<>(missed);
        all.addAll(waiting);
        waiting = null;
        all.sort(Comparator.comparingLong(ChatEvent::seq));
        for (ChatEvent event : all) {
            if (event.seq() > lastSentSeq) {
                lastSentSeq = event.seq();
                send(event.json());
            }
        }
    }

    /** Events after {@code seq} only: what the client already has is not sent again. */
    synchronized void startAfter(long seq) {
        lastSentSeq = Math.max(lastSentSeq, seq);
    }

    /** An event for this connection alone (errors, connection_established, a repeat), outside the fan-out. */
    void sendDirect(ServerEvent event) {
        send(json.write(event));
    }

    void frameReceived() {
        lastFrameAt = Instant.now();
    }

    Instant lastFrameAt() {
        return lastFrameAt;
    }

    boolean open() {
        return session.isOpen();
    }

    void ping() {
        try {
            session.sendMessage(new PingMessage());
        } catch (IOException | RuntimeException e) {
            log.debug("Ping to {} failed", id, e);
        }
    }

    void close(CloseStatus status) {
        try {
            session.close(status);
        } catch (IOException | RuntimeException e) {
            log.debug("Closing {} failed", id, e);
        }
    }

    private void send(String json) {
        if (!session.isOpen()) {
            return;
        }
        try {
            session.sendMessage(new TextMessage(json));
        } catch (IOException | RuntimeException e) {
            // a slow or gone client: its send buffer is bounded, and past it the session is closed
            log.debug("Sending to {} failed; closing it", id, e);
            close(CloseStatus.SESSION_NOT_RELIABLE);
        }
    }
}
