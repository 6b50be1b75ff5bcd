package com.chatreview.realtime;

import com.chatreview.conversation.ErrorCode;
import com.chatreview.metrics.TenantTags;
import com.chatreview.tenancy.TenantId;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.stereotype.Component;

/**
 * The WebSocket's series an operator watches (docs/deployment.md, "Metrics an operator watches"): open connections
 * by kind, frames received and refused by reason (the replies' series are {@code ConversationMetrics}'). Per tenant
 * only where {@link TenantTags} names it.
 */
@Component
class RealtimeMetrics {

    /** How a connection got in: the tenant's backend (API key) or the chat page (link or embed token). */
    enum ConnectionKind {
        API,
        CHAT_PAGE;

        String value() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }

        static ConnectionKind of(Connection connection) {
            return connection.apiKeyId == null ? CHAT_PAGE : API;
        }
    }

    private final MeterRegistry meters;
    private final TenantTags tenants;
    private final Map<ConnectionKind, AtomicInteger> open = new EnumMap<>(ConnectionKind.class);

    RealtimeMetrics(MeterRegistry meters, TenantTags tenants) {
        this.meters = meters;
        this.tenants = tenants;
        for (ConnectionKind kind : ConnectionKind.values()) {
            AtomicInteger count = new AtomicInteger();
            open.put(kind, count);
            Gauge.builder("chat.connections.open", count, AtomicInteger::get)
                    .description("WebSocket connections open on this node")
                    .tag("kind", kind.value())
                    .register(meters);
        }
    }

    void connectionOpened(Connection connection) {
        openOf(connection).incrementAndGet();
    }

    void connectionClosed(Connection connection) {
        openOf(connection).decrementAndGet();
    }

    void frameReceived(TenantId tenant) {
        Counter.builder("chat.frames.received")
                .description("Client frames received")
                .tag("tenant", tenants.of(tenant))
                .register(meters)
                .increment();
    }

    /** A client frame was answered with an error and not stored: why, as the error's code (or queue_full). */
    void frameRefused(TenantId tenant, String reason) {
        Counter.builder("chat.frames.refused")
                .description("Client frames refused (not stored), by reason")
                .tag("tenant", tenants.of(tenant))
                .tag("reason", reason)
                .register(meters)
                .increment();
    }

    void frameRefused(TenantId tenant, ErrorCode code) {
        frameRefused(tenant, code.name().toLowerCase(java.util.Locale.ROOT));
    }

    /** Every kind's count is registered at start. */
    private AtomicInteger openOf(Connection connection) {
        return Objects.requireNonNull(open.get(ConnectionKind.of(connection)));
    }
}
