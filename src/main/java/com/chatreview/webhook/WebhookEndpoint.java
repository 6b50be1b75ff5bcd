package com.chatreview.webhook;

import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * An endpoint a tenant registered.
 *
 * @param disabledReason null while enabled; why it is disabled otherwise
 */
public record WebhookEndpoint(
        UUID id,
        UUID tenantId,
        String url,
        List<EventType> eventTypes,
        @Nullable String description,
        boolean enabled,
        @Nullable String disabledReason,
        Instant createdAt,
        Instant updatedAt) {

    /** Why an endpoint the tenant turned off is off. */
    public static final String DISABLED_BY_TENANT = "disabled by the tenant";
}
