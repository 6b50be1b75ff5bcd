package com.chatreview.realtime;

import com.chatreview.conversation.Conversations;
import java.time.Duration;
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

    private void closeAll() {
        for (Connection connection : connections.all()) {
            connection.close(CloseStatus.GOING_AWAY);
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
