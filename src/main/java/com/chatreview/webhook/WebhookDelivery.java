package com.chatreview.webhook;

import java.time.Instant;
import java.util.UUID;

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
        Integer lastStatusCode,
        String lastError,
        Integer lastLatencyMs,
        Instant nextAttemptAt,
        Instant createdAt,
        Instant deliveredAt) {}
