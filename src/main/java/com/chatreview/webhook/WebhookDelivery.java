package com.chatreview.webhook;

import java.time.Instant;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * A delivery of an event to an endpoint, as it stands.
 *
 * @param status {@code pending} (waiting for its next attempt), {@code delivered} or {@code failed} (given up)
 * @param nextAttemptAt when a pending delivery is tried next; null once it is delivered or failed
 */
public record WebhookDelivery(
        UUID id,
        UUID eventId,
        String eventType,
        String status,
        int attempts,
        @Nullable Integer lastStatusCode,
        @Nullable String lastError,
        @Nullable Integer lastLatencyMs,
        @Nullable Instant nextAttemptAt,
        Instant createdAt,
        @Nullable Instant deliveredAt) {}
