package com.chatreview.realtime;

import com.chatreview.chat.ChatId;
import com.chatreview.conversation.ChatEvent;
import com.chatreview.conversation.ChatListeners;
import com.chatreview.conversation.EventJson;
import com.chatreview.conversation.ServerEvent;
import com.chatreview.tenancy.TenantId;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.jetty.websocket.api.Callback;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.web.socket.CloseStatus;
import org.springframework.web.socket.WebSocketSession;

/**
 * One authenticated WebSocket connection on a chat. Events reach it in {@code seq} order, each once: while it
 * catches up on what it missed ({@code resume_from}) live events wait in a buffer, then everything is sent in
 * {@code seq} order.
 *
 * <p>Nothing waits for the client: whatever is sent is handed to the WebSocket's non-blocking sends, which queue it
 * and write it as the client takes it, so a client that stops reading holds up nobody. More than the send buffer
 * waiting, or frames waiting with no write done for longer than the send time limit, drops the connection.
 */
final class Connection implements ChatListeners.Listener {

    private static final Logger log = LoggerFactory.getLogger(Connection.class);

    /** How often a catching-up connection looks whether its client has taken what was sent. */
    private static final Duration ROOM_CHECK = Duration.ofMillis(5);

    final String id = UUID.randomUUID().toString();
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
        this(WebSocketSends.of(session), admitted, json, sendBufferBytes, sendTimeLimit);
    }

    Connection(
            WebSocketSends sends,
            Admission.Admitted admitted,
            EventJson json,
            long sendBufferBytes,
            Duration sendTimeLimit) {
        this.json = json;
        this.tenantId = admitted.tenantId();
        this.apiKeyId = admitted.apiKeyId();
        this.userId = admitted.userId();
        this.chatId = admitted.chatId();
        this.validUntil = admitted.validUntil();
        this.outbox = new Outbox(sends, sendBufferBytes, sendTimeLimit);
    }

    /** A chat event: sent now, or kept until the connection has caught up. */
    @Override
    public synchronized void deliver(ChatEvent event) {
        if (waiting != null) {
            waiting.add(event);
        } else if (event.seq() > lastSentSeq) {
            lastSentSeq = event.seq();
            outbox.sendText(event.json());
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
            outbox.sendText(event.json());
        }
    }

    /** Events after {@code seq} only: what the client already has is not sent again. */
    synchronized void startAfter(long seq) {
        startSeq = Math.max(startSeq, seq);
        lastSentSeq = Math.max(lastSentSeq, seq);
    }

    /** An event for this connection alone (errors, connection_established, a repeat), outside the fan-out. */
    void sendDirect(ServerEvent event) {
        outbox.sendText(json.write(event));
    }

    void frameReceived() {
        lastFrameAt = Instant.now();
    }

    Instant lastFrameAt() {
        return lastFrameAt;
    }

    boolean open() {
        return outbox.sends.isOpen() && !outbox.finished.get();
    }

    void ping() {
        outbox.sendPing();
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
        outbox.sends.disconnect();
    }

    /** The bytes of the text in UTF-8, counted without encoding it. */
    private static long utf8Length(String text) {
        long bytes = text.length();
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c >= 0x80) {
                // two bytes up to U+07FF, three above; a surrogate pair (four bytes) is two chars of two each
                bytes += c < 0x800 || Character.isSurrogate(c) ? 1 : 2;
            }
        }
        return bytes;
    }

    /**
     * What was handed to the WebSocket and not yet written to the client, counted in bytes: the WebSocket queues the
     * frames and writes them as the client takes them, on the sending thread when it can, so an event costs no thread
     * switch and a client that stops reading holds up nobody.
     */
    private final class Outbox {

        private final WebSocketSends sends;
        private final AtomicLong queuedBytes = new AtomicLong();
        private final AtomicBoolean finished = new AtomicBoolean();
        /** Counted down once the close frame is written, or at once when the connection ends otherwise. */
        private final CountDownLatch written = new CountDownLatch(1);

        private final long limitBytes;
        private final long limitNanos;
        /**
         * When a write last completed, or the outbox last went from empty to waiting ({@link System#nanoTime()}):
         * frames that wait with no progress for longer than the send time limit mean the client is not reading.
         */
        private volatile long progressAt = System.nanoTime();

        private Outbox(WebSocketSends sends, long limitBytes, Duration sendTimeLimit) {
            this.sends = sends;
            this.limitBytes = limitBytes;
            this.limitNanos = sendTimeLimit.toNanos();
        }

        void sendText(String text) {
            send(text, utf8Length(text));
        }

        void sendPing() {
            send(null, 0);
        }

        /** Synchronized: the WebSocket gets the frames in the order they were sent, before a close frame. */
        private synchronized void send(@Nullable String text, long bytes) {
            if (finished.get()) {
                return;
            }
            long before = queuedBytes.getAndAdd(bytes);
            long now = System.nanoTime();
            if (before == 0) {
                progressAt = now;
            }
            if (before + bytes > limitBytes) {
                abort("more than " + limitBytes + " bytes wait to be sent");
            } else if (before > 0 && now - progressAt > limitNanos) {
                abort("a write has taken longer than " + Duration.ofNanos(limitNanos));
            } else if (text == null) {
                sends.ping(new Written(bytes));
            } else {
                sends.text(text, new Written(bytes));
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
                if (System.nanoTime() - progressAt > limitNanos) {
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
            if (!finished.compareAndSet(false, true)) {
                return;
            }
            if (status == null) {
                written.countDown();
                return;
            }
            synchronized (this) {
                sends.close(status, Callback.from(written::countDown, failure -> written.countDown()));
            }
        }

        /** A frame handed to the WebSocket: told once when it was written or failed. */
        private final class Written implements Callback {

            private final long bytes;

            Written(long bytes) {
                this.bytes = bytes;
            }

            @Override
            public void succeed() {
                progressAt = System.nanoTime();
                queuedBytes.addAndGet(-bytes);
            }

            @Override
            public void fail(Throwable failure) {
                queuedBytes.addAndGet(-bytes);
                if (finished.get()) {
                    return;
                }
                if (sends.isOpen()) {
                    log.debug("Sending to {} failed; dropping it", id, failure);
                    abort("a write failed: " + failure.getMessage());
                } else {
                    finish(null); // the client went away: the server tells the handler
                }
            }
        }
    }
}
