package com.chatreview.webhook;

import com.chatreview.database.AfterCommit;
import com.chatreview.database.Sql;
import com.chatreview.tenancy.TenantId;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.json.JsonMapper;

/**
 * Records an event for the tenant's endpoints that subscribe to it: one delivery row each, written in the caller's
 * transaction (the change that caused the event and its deliveries commit together, or neither does). No network
 * call: the {@link WebhookDeliverer} sends them. A tenant's endpoints are looked up at most every few seconds per
 * node, so a tenant without webhooks costs a cache look-up per event.
 */
public class WebhookEvents {

    /** How long a node trusts what it read of a tenant's endpoints (another node's change shows after it). */
    static final Duration ENDPOINTS_CACHE = Duration.ofSeconds(2);

    private final JdbcClient jdbc;
    private final JsonMapper json;
    private final Endpoints endpoints;
    private final Runnable wakeDeliverer;
    private final Cache<UUID, List<WebhookEndpoint>> enabled = Caffeine.newBuilder()
            .expireAfterWrite(ENDPOINTS_CACHE)
            .maximumSize(100_000)
            .build();

    private final Clock clock;

    WebhookEvents(JdbcClient jdbc, JsonMapper json, Endpoints endpoints, Runnable wakeDeliverer, Clock clock) {
        this.clock = clock;
        this.jdbc = jdbc;
        this.json = json;
        this.endpoints = endpoints;
        this.wakeDeliverer = wakeDeliverer;
    }

    /**
     * Records the event for every enabled endpoint of the tenant subscribed to its type.
     *
     * @param orderingKey the events of one key (a chat's id, a submission's id) reach an endpoint in the order recorded
     * @param data the event's {@code data}, as the REST resource it is about is rendered
     */
    public void record(TenantId tenantId, EventType type, String orderingKey, Object data) {
        List<WebhookEndpoint> subscribed = subscribed(tenantId.value(), type);
        if (subscribed.isEmpty()) {
            return;
        }
        insert(subscribed, type.wireName(), orderingKey, data);
    }

    /**
     * Replaces the payload of every delivery about one chat or submission of the tenant (its ordering key), pending
     * or past, with a tombstone: the same type and timestamp, {@code data} {@code {"erased": true}} (written as the
     * service writes a payload: compact, in that order). A user's erasure
     * does it in the transaction that erases the chat or the submission; a pending delivery goes out as the
     * tombstone.
     */
    public int tombstone(TenantId tenantId, String orderingKey) {
        return jdbc.sql("""
                        UPDATE webhook_deliveries
                        SET payload = '{"type":' || to_json(event_type)::text
                                      || ',"timestamp":' || (payload::json -> 'timestamp')::text
                                      || ',"data":{"erased":true}}'
                        WHERE tenant_id = :tenant AND ordering_key = :key""")
                .param("tenant", tenantId.value())
                .param("key", orderingKey)
                .update();
    }

    /**
     * Replaces with a tombstone, as {@link #tombstone(TenantId, String)} does, the payload of each delivery about one
     * chat or submission whose data names this object ({@code data.<field>.id}): one message's
     * {@code chat.message.created} among the chat's other events.
     */
    public int tombstone(TenantId tenantId, String orderingKey, String field, String id) {
        return jdbc.sql("""
                        UPDATE webhook_deliveries
                        SET payload = '{"type":' || to_json(event_type)::text
                                      || ',"timestamp":' || (payload::json -> 'timestamp')::text
                                      || ',"data":{"erased":true}}'
                        WHERE tenant_id = :tenant AND ordering_key = :key
                          AND payload::jsonb -> 'data' -> :field ->> 'id' = :id""")
                .param("tenant", tenantId.value())
                .param("key", orderingKey)
                .param("field", field)
                .param("id", id)
                .update();
    }

    /** Whether an event of the type would reach an endpoint of the tenant: if not, its data need not be rendered. */
    public boolean wanted(TenantId tenantId, EventType type) {
        return !subscribed(tenantId.value(), type).isEmpty();
    }

    private List<WebhookEndpoint> subscribed(UUID tenantId, EventType type) {
        return enabled.get(tenantId, endpoints::enabledOf).stream()
                .filter(endpoint -> endpoint.eventTypes().contains(type))
                .toList();
    }

    /** A {@code webhook.test} event to one endpoint, whatever it subscribes to. */
    void recordTest(WebhookEndpoint endpoint) {
        insert(List.of(endpoint), "webhook.test", "test:" + endpoint.id(), Map.of("webhook_id", endpoint.id()));
    }

    /** A tenant changed its endpoints on this node: the next event reads them again. */
    void endpointsChanged(UUID tenantId) {
        enabled.invalidate(tenantId);
    }

    private void insert(List<WebhookEndpoint> to, String type, String orderingKey, Object data) {
        Instant now = Sql.now(clock);
        UUID eventId = UUID.randomUUID();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("type", type);
        body.put("timestamp", now);
        body.put("data", data);
        String payload = json.writeValueAsString(body);
        for (WebhookEndpoint endpoint : to) {
            Deliveries.insert(jdbc, endpoint, eventId, type, orderingKey, payload, now);
        }
        wakeDelivererAfterCommit();
    }

    /** Deliveries were recorded in the transaction under way: the deliverer looks once it commits, not at its poll. */
    void wakeDelivererAfterCommit() {
        AfterCommit.run(wakeDeliverer);
    }
}
