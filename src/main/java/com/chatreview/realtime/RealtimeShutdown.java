package com.chatreview.realtime;

import com.chatreview.conversation.Conversations;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;
import org.springframework.web.socket.CloseStatus;

/**
 * On shutdown, lets the replies in progress be stored and closes every connection with 1001: on a single node after
 * the replies (their clients watch them to the end), in a cluster before them (the clients resume on another node,
 * where the replies still stream), handing over to the other nodes what is unfinished after the grace.
 */
@Component
class RealtimeShutdown implements SmartLifecycle {

    /** Before the web server stops, so that connections close with 1001 while it still runs. */
    static final int PHASE = Integer.MAX_VALUE - 100;

    private static final Logger log = LoggerFactory.getLogger(RealtimeShutdown.class);

    /** How long the replies handed over get to stop here before the node goes on stopping. */
    private static final Duration HAND_OVER_GRACE = Duration.ofSeconds(5);

    /** How long the close frames get to be written. */
    private static final Duration CLOSE_GRACE = Duration.ofSeconds(5);

    private final ConnectionRegistry connections;
    private final Conversations conversations;
    private final ChatSocketHandler handler;
    private final RealtimeSettings settings;
    private volatile boolean running;

    RealtimeShutdown(
            ConnectionRegistry connections,
            Conversations conversations,
            ChatSocketHandler handler,
            RealtimeSettings settings) {
        this.connections = connections;
        this.conversations = conversations;
        this.handler = handler;
        this.settings = settings;
    }

    @Override
    public void start() {
        running = true;
    }

    @Override
    public void stop() {
        handler.shuttingDown();
        if (conversations.othersTakeOver()) {
            closeAll();
        }
        try {
            if (!conversations.awaitIdle(settings.shutdownGrace())) {
                if (conversations.othersTakeOver()) {
                    log.warn(
                            "Replies still running after {}; handing them over to the other nodes",
                            settings.shutdownGrace());
                    conversations.handOver();
                    conversations.awaitIdle(HAND_OVER_GRACE);
                } else {
                    log.warn("Replies still running after {}; closing connections anyway", settings.shutdownGrace());
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        closeAll();
        running = false;
    }

    /**
     * Closes every connection with 1001 and waits until the close frames are written, at most {@link #CLOSE_GRACE}:
     * each connection writes its own from a thread of its own, and the web server, stopping next, would otherwise cut
     * the connections whose writer had not got to it yet (the client sees 1006, not 1001).
     */
    private void closeAll() {
        List<Connection> all = List.copyOf(connections.all());
        all.forEach(connection -> connection.close(CloseStatus.GOING_AWAY));
        long deadline = System.nanoTime() + CLOSE_GRACE.toNanos();
        try {
            for (Connection connection : all) {
                if (!connection.awaitWritten(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())))) {
                    log.warn("Connections still closing after {}; stopping anyway", CLOSE_GRACE);
                    return;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }
}
