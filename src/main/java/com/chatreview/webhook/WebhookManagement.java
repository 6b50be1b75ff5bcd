package com.chatreview.webhook;

import com.chatreview.database.Sql;
import com.chatreview.kernel.InvalidInput;
import com.chatreview.kernel.Page;
import com.chatreview.kernel.PageRequest;
import com.chatreview.outbound.Destinations;
import com.chatreview.tenancy.TenantId;
import com.chatreview.webhook.WebhookErrors.DeliveryNotFound;
import com.chatreview.webhook.WebhookErrors.WebhookNotFound;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** A tenant's webhook endpoints: register, read, change, delete, rotate the signing secret (docs/api.md, Webhooks). */
@Service
public class WebhookManagement {

    /** The most endpoints a tenant may register (docs/api.md, Webhooks): each is polled and sent to by every node. */
    public static final int MAX_ENDPOINTS = 20;

    /** How long the secret a rotation replaces goes on signing beside the new one. */
    static final Duration ROTATION_OVERLAP = Duration.ofHours(24);

    private final Endpoints endpoints;
    private final SigningSecrets secrets;
    private final Destinations destinations;
    private final WebhookEvents events;
    private final Deliveries deliveries;

    private final Clock clock;

    WebhookManagement(
            Endpoints endpoints,
            SigningSecrets secrets,
            Destinations destinations,
            WebhookEvents events,
            Deliveries deliveries,
            Clock clock) {
        this.clock = clock;
        this.deliveries = deliveries;
        this.endpoints = endpoints;
        this.secrets = secrets;
        this.destinations = destinations;
        this.events = events;
    }

    @Transactional
    public WebhookWithSecret register(
            TenantId tenantId, String url, List<EventType> eventTypes, @Nullable String description) {
        String checked = destinations.checked("url", url).toString();
        if (endpoints.countLocked(tenantId.value()) >= MAX_ENDPOINTS) {
            throw new InvalidInput(
                    "The tenant has " + MAX_ENDPOINTS + " webhook endpoints already, the most it may have",
                    "Delete an endpoint you no longer need (DELETE /api/v1/webhooks/{id}), or send more event types"
                            + " to one endpoint.",
                    List.of());
        }
        Instant now = now();
        WebhookEndpoint endpoint = new WebhookEndpoint(
                UUID.randomUUID(),
                tenantId.value(),
                checked,
                List.copyOf(eventTypes),
                description,
                true,
                null,
                now,
                now);
        String secret = secrets.newSecret();
        endpoints.insert(endpoint, secrets.seal(secret));
        events.endpointsChanged(tenantId.value());
        return new WebhookWithSecret(endpoint, secret);
    }

    public List<WebhookEndpoint> endpointsOf(TenantId tenantId) {
        return endpoints.ofTenant(tenantId.value());
    }

    public WebhookEndpoint endpoint(TenantId tenantId, UUID id) {
        return endpoints.find(tenantId.value(), id).orElseThrow(() -> new WebhookNotFound(id));
    }

    /**
     * Changes what the tenant sent; enabling an endpoint the service disabled clears the reason, disabling one
     * gives it the reason {@link WebhookEndpoint#DISABLED_BY_TENANT}.
     */
    @Transactional
    public WebhookEndpoint update(TenantId tenantId, UUID id, EndpointChanges changes) {
        WebhookEndpoint current = endpoint(tenantId, id);
        String url = changes.url() == null
                ? current.url()
                : destinations.checked("url", changes.url()).toString();
        boolean enabled = changes.enabled() == null ? current.enabled() : changes.enabled();
        String reason = enabled
                ? null
                : (changes.enabled() != null && current.enabled()
                        ? WebhookEndpoint.DISABLED_BY_TENANT
                        : current.disabledReason());
        WebhookEndpoint changed = new WebhookEndpoint(
                current.id(),
                current.tenantId(),
                url,
                changes.eventTypes() == null ? current.eventTypes() : List.copyOf(changes.eventTypes()),
                changes.description() == null ? current.description() : changes.description(),
                enabled,
                reason,
                current.createdAt(),
                now());
        endpoints.update(changed);
        events.endpointsChanged(tenantId.value());
        return changed;
    }

    /** A new secret signs from now on; the one it replaces goes on signing for {@link #ROTATION_OVERLAP}. */
    @Transactional
    public WebhookWithSecret rotateSecret(TenantId tenantId, UUID id) {
        String secret = secrets.newSecret();
        Instant now = now();
        if (!endpoints.rotate(tenantId.value(), id, secrets.seal(secret), now.plus(ROTATION_OVERLAP), now)) {
            throw new WebhookNotFound(id);
        }
        return new WebhookWithSecret(endpoint(tenantId, id), secret);
    }

    @Transactional
    public void delete(TenantId tenantId, UUID id) {
        if (!endpoints.delete(tenantId.value(), id)) {
            throw new WebhookNotFound(id);
        }
        events.endpointsChanged(tenantId.value());
    }

    /** Sends the endpoint a {@code webhook.test} event, whatever it subscribes to (also while disabled: it waits). */
    @Transactional
    public void sendTest(TenantId tenantId, UUID id) {
        events.recordTest(endpoint(tenantId, id));
    }

    /** A page of the endpoint's deliveries, newest first. */
    public Page<WebhookDelivery> deliveries(TenantId tenantId, UUID id, PageRequest page) {
        endpoint(tenantId, id);
        return new Page<>(deliveries.ofEndpoint(id, page.offset(), page.limit()), deliveries.countOfEndpoint(id));
    }

    /** Sends a delivery's event to the endpoint again (the same {@code webhook-id}), as a new delivery. */
    @Transactional
    public void replay(TenantId tenantId, UUID id, UUID deliveryId) {
        endpoint(tenantId, id);
        if (!deliveries.replay(id, deliveryId, now())) {
            throw new DeliveryNotFound(deliveryId);
        }
        events.wakeDelivererAfterCommit();
    }

    private Instant now() {
        return Sql.now(clock);
    }
}
