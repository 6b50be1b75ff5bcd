package com.chatreview.realtime;

import java.time.Clock;
import java.time.Instant;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;
import org.springframework.web.socket.CloseStatus;

/**
 * Every {@code REALTIME_PING_INTERVAL}: pings each open connection, closes those idle for longer than the idle
 * timeout, and forgets those already closed.
 */
@Component
class ConnectionPings implements SmartLifecycle {

    private final ConnectionRegistry connections;
    private final RealtimeSettings settings;
    private final Clock clock;
    private @Nullable ScheduledExecutorService timer;
    private volatile boolean running;

    ConnectionPings(ConnectionRegistry connections, RealtimeSettings settings, Clock clock) {
        this.connections = connections;
        this.settings = settings;
        this.clock = clock;
    }

    @Override
    public void start() {
        timer = Executors.newSingleThreadScheduledExecutor(
                Thread.ofVirtual().name("ws-pings").factory());
        long every = settings.pingInterval().toMillis();
        timer.scheduleWithFixedDelay(this::pingAndSweep, every, every, TimeUnit.MILLISECONDS);
        running = true;
    }

    void pingAndSweep() {
        Instant idleSince = clock.instant().minus(settings.idleTimeout());
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

    @Override
    public void stop() {
        ScheduledExecutorService started = timer;
        if (started != null) {
            started.shutdownNow();
        }
        running = false;
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /** Stops after {@link RealtimeShutdown}: connections keep being pinged while the replies in progress finish. */
    @Override
    public int getPhase() {
        return RealtimeShutdown.PHASE - 1;
    }
}
