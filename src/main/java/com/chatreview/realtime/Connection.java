package com.chatreview.realtime;

import com.chatreview.chat.ChatId;
import com.chatreview.conversation.ChatEvent;
import com.chatreview.conversation.ChatListeners;
import com.chatreview.conversation.EventJson;
import com.chatreview.conversation.ServerEvent;
import com.chatreview.tenancy.TenantId;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.web.socket.CloseStatus;
import org.springframework.web.socket.PingMessage;
import org.springframework.web.socket.TextMessage;
import org.springframework.web.socket.WebSocketMessage;
import org.springframework.web.socket.WebSocketSession;
import org.springframework.web.socket.adapter.NativeWebSocketSession;

/**
 * One authenticated WebSocket connection on a chat. Events reach it in {@code seq} order, each once: while it
 * catches up on what it missed ({@code resume_from}) live events wait in a buffer, then everything is sent in
 * {@code seq} order.
 *
 * <p>Nothing is written on the caller's thread: whatever is sent goes into the connection's own outbox, written by
 * a virtual thread of its own, so a client that stops reading holds up nobody (a write to a WebSocket blocks until
 * the client has taken it). An outbox holding more than the send buffer, or a write taking longer than the send
 * time limit, drops the connection.
 */
final class Connection implements ChatListeners.Listener {

    private static final Logger log = LoggerFactory.getLogger(Connection.class);

    /** How often a catching-up connection looks whether its client has taken what was sent. */
    private static final Duration ROOM_CHECK = Duration.ofMillis(5);

    final String id = UUID.randomUUID().toString();
    final WebSocketSession session;
    final TenantId tenantId;
    final @Nullable UUID apiKeyId;
    final String userId;
    final ChatId chatId;
    /** When what let the connection in expires (an embed token); {@code null}: never. */
    final @Nullable Instant validUntil;

    private final EventJson json;
    private final Outbox outbox;
    private volatile Instant lastFrameAt = Instant.now();
    /** Events up to this seq came before the connection's start: the client has them, or asked not to get them. */
    private long startSeq;

    private long lastSentSeq;
    /** Events that wait, in seq order, until the connection has caught up; {@code null} once it has. */
    private @Nullable PriorityQueue<ChatEvent> waiting = new PriorityQueue<>(Comparator.comparingLong(ChatEvent::seq));

    Connection(
            WebSocketSession session,
            Admission.Admitted admitted,
            EventJson json,
            long sendBufferBytes,
            Duration sendTimeLimit) {
        this.session = session;
        this.json = json;
        this.tenantId = admitted.tenantId();
        this.apiKeyId = admitted.apiKeyId();
        this.userId = admitted.userId();
        this.chatId = admitted.chatId();
        this.validUntil = admitted.validUntil();
        this.outbox = new Outbox(sendBufferBytes, sendTimeLimit);
    }

    /** A chat event: sent now, or kept until the connection has caught up. */
    @Override
    public synchronized void deliver(ChatEvent event) {
        if (waiting != null) {
            waiting.add(event);
        } else if (event.seq() > lastSentSeq) {
            lastSentSeq = event.seq();
            outbox.send(new TextMessage(event.json()));
        } else if (event.seq() > startSeq) {
            // every node hands a chat's events over in seq order: one arriving late is a fault to see, not to hide
            log.error(
                    "Event {} of chat {} arrived after event {} on connection {}; not sent again",
                    event.seq(),
                    chatId,
                    lastSentSeq,
                    id);
        }
    }

    /**
     * Events the connection is to get in {@code seq} order with the missed messages (a reply in progress), kept with
     * the live events that wait until it has caught up.
     */
    synchronized void hold(List<ChatEvent> events) {
        if (waiting != null) {
            waiting.addAll(events);
        }
    }

    /**
     * One event the connection missed (a stored message's final event), in {@code seq} order: the held events before
     * it go first. Waits, outside the lock, until the client has taken most of what was sent before, so that a long
     * history goes out as fast as the client reads it and never piles up in memory; false when the connection is
     * gone (its client stopped reading, say) and catching up should stop.
     */
    boolean sendMissed(ChatEvent missed) {
        if (!outbox.awaitRoom(missed.json().length())) {
            return false;
        }
        synchronized (this) {
            PriorityQueue<ChatEvent> held = Objects.requireNonNull(waiting, "missed events come before goLive");
            while (!held.isEmpty() && held.peek().seq() < missed.seq()) {
                sendInOrder(held.poll());
            }
            sendInOrder(missed);
        }
        return true;
    }

    /** Sends what is held and what arrived meanwhile, in seq order, then goes live. */
    synchronized void goLive() {
        PriorityQueue<ChatEvent> held = Objects.requireNonNull(waiting, "a connection goes live once");
        while (!held.isEmpty()) {
            sendInOrder(held.poll());
        }
        waiting = null;
    }

    private void sendInOrder(ChatEvent event) {
        if (event.seq() > lastSentSeq) {
            lastSentSeq = event.seq();
            outbox.send(new TextMessage(event.json()));
        }
    }

    /** Events after {@code seq} only: what the client already has is not sent again. */
    synchronized void startAfter(long seq) {
        startSeq = Math.max(startSeq, seq);
        lastSentSeq = Math.max(lastSentSeq, seq);
    }

    /** An event for this connection alone (errors, connection_established, a repeat), outside the fan-out. */
    void sendDirect(ServerEvent event) {
        outbox.send(new TextMessage(json.write(event)));
    }

    void frameReceived() {
        lastFrameAt = Instant.now();
    }

    Instant lastFrameAt() {
        return lastFrameAt;
    }

    boolean open() {
        return session.isOpen() && !outbox.finished.get();
    }

    void ping() {
        outbox.send(new PingMessage());
    }

    /** Closes the connection once what was sent before has been written. */
    void close(CloseStatus status) {
        outbox.finish(status);
    }

    /**
     * Waits until what was queued before {@link #close} and the close frame are written (or the connection ended
     * otherwise), at most {@code patience}: false when that did not happen in time.
     */
    boolean awaitWritten(Duration patience) throws InterruptedException {
        return outbox.written.await(patience.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** The connection has closed: its outbox stops. */
    void closed() {
        outbox.finish(null);
    }

    /** Drops the connection at once, with no close handshake: its client is not reading. */
    private void abort(String why) {
        log.info("Dropping connection {} on chat {}: {}", id, chatId, why);
        outbox.finish(null);
        if (session instanceof NativeWebSocketSession nativeSession
                && nativeSession.getNativeSession() instanceof org.eclipse.jetty.websocket.api.Session jetty) {
            jetty.disconnect();
        } else {
            Thread.ofVirtual().start(() -> closeNow(CloseStatus.SESSION_NOT_RELIABLE));
        }
    }

    private void closeNow(CloseStatus status) {
        try {
            session.close(status);
        } catch (IOException | RuntimeException e) {
            log.debug("Closing {} failed", id, e);
        }
    }

    /** What waits to be written to the client, and the virtual thread that writes it, started while there is any. */
    private final class Outbox {

        private final LinkedBlockingQueue<Object> queue = new LinkedBlockingQueue<>();
        private final AtomicLong queuedBytes = new AtomicLong();
        private final AtomicBoolean finished = new AtomicBoolean();
        /** Counted down when the writer ends: after the close frame, or once the connection has gone. */
        private final CountDownLatch written = new CountDownLatch(1);

        private final long limitBytes;
        private final long limitNanos;
        /** When the write under way began ({@link System#nanoTime()}), 0 when none is. */
        private volatile long writingSince;

        private Outbox(long limitBytes, Duration sendTimeLimit) {
            this.limitBytes = limitBytes;
            this.limitNanos = sendTimeLimit.toNanos();
            Thread.ofVirtual().name("ws-out-" + id).start(this::write);
        }

        void send(WebSocketMessage<?> message) {
            if (finished.get()) {
                return;
            }
            long queued = queuedBytes.addAndGet(message.getPayloadLength());
            long since = writingSince;
            if (queued > limitBytes) {
                abort("more than " + limitBytes + " bytes wait to be sent");
            } else if (since != 0 && System.nanoTime() - since > limitNanos) {
                abort("a write has taken longer than " + Duration.ofNanos(limitNanos));
            } else {
                queue.add(message);
            }
        }

        /**
         * Waits until {@code bytes} more fit in half the send buffer (or nothing waits: one large event goes alone);
         * false when the outbox is finished, or its client has stopped reading (then the connection is dropped).
         */
        boolean awaitRoom(long bytes) {
            while (!finished.get()) {
                long queued = queuedBytes.get();
                if (queued == 0 || queued + bytes <= limitBytes / 2) {
                    return true;
                }
                long since = writingSince;
                if (since != 0 && System.nanoTime() - since > limitNanos) {
                    abort("a write has taken longer than " + Duration.ofNanos(limitNanos));
                    return false;
                }
                try {
                    Thread.sleep(ROOM_CHECK);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
            return false;
        }

        /** No more sends; with a status, the connection is closed with it after what is queued. */
        void finish(@Nullable CloseStatus status) {
            if (finished.compareAndSet(false, true)) {
                queue.add(status == null ? Boolean.FALSE : status);
            }
        }

        private void write() {
            try {
                while (true) {
                    Object next = queue.take();
                    if (next instanceof CloseStatus status) {
                        closeNow(status);
                        return;
                    }
                    if (!(next instanceof WebSocketMessage<?> message)) {
                        return;
                    }
                    if (!session.isOpen()) {
                        queuedBytes.addAndGet(-message.getPayloadLength());
                        continue;
                    }
                    writingSince = System.nanoTime();
                    try {
                        session.sendMessage(message);
                    } catch (IOException | RuntimeException e) {
                        log.debug("Sending to {} failed; closing it", id, e);
                        abort("a write failed: " + e.getMessage());
                        return;
                    } finally {
                        writingSince = 0;
                        queuedBytes.addAndGet(-message.getPayloadLength());
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                written.countDown();
            }
        }
    }
}
