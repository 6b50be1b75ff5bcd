package com.chatreview.webhook;

import com.chatreview.database.Sql;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;

/** The {@code webhook_deliveries} table: the outbox, and each delivery's attempts. */
class Deliveries {

    /** A delivery claimed by a node: it is this node's to send until {@code lockedUntil}. */
    record Claimed(UUID id, UUID endpointId, UUID eventId, String url, String payload, int attempts) {}

    private final JdbcClient jdbc;

    Deliveries(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    static void insert(
            JdbcClient jdbc,
            WebhookEndpoint endpoint,
            UUID eventId,
            String type,
            String orderingKey,
            String payload,
            Instant now) {
        jdbc.sql("""
                INSERT INTO webhook_deliveries (id, tenant_id, endpoint_id, event_id, event_type, ordering_key, payload,
                                                status, next_attempt_at, created_at)
                VALUES (:id, :tenant, :endpoint, :event, :type, :key, :payload, 'pending', :now, :now)""")
                .param("id", UUID.randomUUID())
                .param("tenant", endpoint.tenantId())
                .param("endpoint", endpoint.id())
                .param("event", eventId)
                .param("type", type)
                .param("key", orderingKey)
                .param("payload", payload)
                .param("now", Sql.at(now))
                .update();
    }

    /**
     * The most deliveries of one endpoint being sent at once (docs/api.md, Webhooks), counted over every node's claims:
     * a slow receiver of one tenant holds at most these of the delivery slots everyone shares.
     */
    static final int PER_ENDPOINT_IN_FLIGHT = 4;

    /**
     * Claims up to {@code limit} deliveries that are due, at most {@link #PER_ENDPOINT_IN_FLIGHT} in flight per
     * endpoint with those already claimed, of enabled endpoints, each the oldest pending one of its
     * endpoint and ordering key (a later event waits while an earlier one is retried); no other node gets them
     * until {@code lease} has passed. The claimed rows are picked once, in a materialized CTE: as a sub-select under
     * the UPDATE's {@code IN}, PostgreSQL may run the {@code SKIP LOCKED ... LIMIT} again per row it updates and claim
     * more than {@code limit} ({@code database.JobSchedulers} tells where that was seen).
     */
    List<Claimed> claimDue(int limit, Duration lease) {
        return jdbc.sql("""
                WITH flying AS (
                    SELECT endpoint_id, count(*) AS n FROM webhook_deliveries
                    WHERE status = 'pending' AND locked_until >= now()
                    GROUP BY endpoint_id),
                due AS (
                    SELECT c.id, row_number() OVER (PARTITION BY c.endpoint_id ORDER BY c.seq)
                                 + COALESCE(f.n, 0) AS nth
                    FROM webhook_deliveries c
                    JOIN webhook_endpoints e ON e.id = c.endpoint_id AND e.enabled
                    LEFT JOIN flying f ON f.endpoint_id = c.endpoint_id
                    WHERE c.status = 'pending' AND c.next_attempt_at <= now()
                      AND (c.locked_until IS NULL OR c.locked_until < now())
                      -- in the order of its key, but for a replay, which is sent at once and holds up nothing
                      AND (c.replay_of IS NOT NULL
                           OR NOT EXISTS (SELECT 1 FROM webhook_deliveries earlier
                                          WHERE earlier.endpoint_id = c.endpoint_id
                                            AND earlier.ordering_key = c.ordering_key
                                            AND earlier.status = 'pending' AND earlier.seq < c.seq
                                            AND earlier.replay_of IS NULL))),
                claimed AS MATERIALIZED (
                    SELECT c.id FROM webhook_deliveries c
                    WHERE c.id IN (SELECT id FROM due WHERE nth <= :perEndpoint)
                      AND (c.locked_until IS NULL OR c.locked_until < now())
                    ORDER BY c.seq
                    LIMIT :limit
                    FOR UPDATE OF c SKIP LOCKED)
                UPDATE webhook_deliveries d SET locked_until = now() + make_interval(secs => :lease)
                FROM webhook_endpoints w
                WHERE w.id = d.endpoint_id AND d.id IN (SELECT id FROM claimed)
                RETURNING d.id, d.endpoint_id, d.event_id, w.url, d.payload, d.attempts""")
                .param("lease", lease.toMillis() / 1000.0)
                .param("limit", limit)
                .param("perEndpoint", PER_ENDPOINT_IN_FLIGHT)
                .query((rs, row) -> new Claimed(
                        rs.getObject("id", UUID.class),
                        rs.getObject("endpoint_id", UUID.class),
                        rs.getObject("event_id", UUID.class),
                        rs.getString("url"),
                        rs.getString("payload"),
                        rs.getInt("attempts")))
                .list();
    }

    void delivered(UUID id, int statusCode, long latencyMillis, Instant now) {
        jdbc.sql("""
                UPDATE webhook_deliveries SET status = 'delivered', attempts = attempts + 1, last_status_code = :code,
                    last_error = NULL, last_latency_ms = :latency, delivered_at = :now, locked_until = NULL
                WHERE id = :id""")
                .param("code", statusCode)
                .param("latency", (int) Math.min(Integer.MAX_VALUE, latencyMillis))
                .param("now", Sql.at(now))
                .param("id", id)
                .update();
    }

    /** The attempt failed: tried again at {@code nextAttempt}, or given up ({@code nextAttempt} null). */
    void attemptFailed(
            UUID id,
            @Nullable Integer statusCode,
            @Nullable String error,
            long latencyMillis,
            @Nullable Instant nextAttempt) {
        jdbc.sql("""
                UPDATE webhook_deliveries SET attempts = attempts + 1, last_status_code = :code, last_error = :error,
                    last_latency_ms = :latency, locked_until = NULL,
                    status = CASE WHEN CAST(:next AS timestamptz) IS NULL THEN 'failed' ELSE 'pending' END,
                    next_attempt_at = COALESCE(CAST(:next AS timestamptz), next_attempt_at)
                WHERE id = :id""")
                .param("code", statusCode)
                .param("error", error)
                .param("latency", (int) Math.min(Integer.MAX_VALUE, latencyMillis))
                .param("next", nextAttempt == null ? null : Sql.at(nextAttempt))
                .param("id", id)
                .update();
    }

    /** The endpoint's deliveries, newest first. */
    List<WebhookDelivery> ofEndpoint(UUID endpointId, int offset, int limit) {
        return jdbc.sql("""
                SELECT id, event_id, event_type, status, attempts, last_status_code, last_error, last_latency_ms,
                       CASE WHEN status = 'pending' THEN next_attempt_at END AS next_attempt_at, created_at,
                       delivered_at
                FROM webhook_deliveries WHERE endpoint_id = :endpoint ORDER BY seq DESC OFFSET :offset LIMIT :limit""")
                .param("endpoint", endpointId)
                .param("offset", offset)
                .param("limit", limit)
                .query((rs, row) -> new WebhookDelivery(
                        rs.getObject("id", UUID.class),
                        rs.getObject("event_id", UUID.class),
                        rs.getString("event_type"),
                        rs.getString("status"),
                        rs.getInt("attempts"),
                        (Integer) rs.getObject("last_status_code"),
                        rs.getString("last_error"),
                        (Integer) rs.getObject("last_latency_ms"),
                        rs.getTimestamp("next_attempt_at") == null ? null : Sql.instant(rs, "next_attempt_at"),
                        Sql.instantNotNull(rs, "created_at"),
                        rs.getTimestamp("delivered_at") == null ? null : Sql.instant(rs, "delivered_at")))
                .list();
    }

    long countOfEndpoint(UUID endpointId) {
        return jdbc.sql("SELECT count(*) FROM webhook_deliveries WHERE endpoint_id = :endpoint")
                .param("endpoint", endpointId)
                .query(Long.class)
                .single();
    }

    /**
     * Sends the delivery's event again, as a new delivery with the same {@code webhook-id} and body, due now: outside
     * the order of its key's events (an earlier one still pending, waiting for its retry, does not hold it up).
     *
     * @return false when the endpoint has no such delivery
     */
    boolean replay(UUID endpointId, UUID deliveryId, Instant now) {
        return jdbc.sql("""
                INSERT INTO webhook_deliveries (id, tenant_id, endpoint_id, event_id, event_type, ordering_key, payload,
                                                status, next_attempt_at, created_at, replay_of)
                SELECT :new, tenant_id, endpoint_id, event_id, event_type, ordering_key, payload, 'pending', :now, :now,
                       id
                FROM webhook_deliveries WHERE endpoint_id = :endpoint AND id = :id""")
                        .param("new", UUID.randomUUID())
                        .param("now", Sql.at(now))
                        .param("endpoint", endpointId)
                        .param("id", deliveryId)
                        .update()
                > 0;
    }

    /** Whether any delivery to the endpoint succeeded since {@code since}. */
    boolean anyDeliveredSince(UUID endpointId, Instant since) {
        return jdbc.sql("SELECT EXISTS (SELECT 1 FROM webhook_deliveries WHERE endpoint_id = :endpoint"
                        + " AND status = 'delivered' AND delivered_at >= :since)")
                .param("endpoint", endpointId)
                .param("since", Sql.at(since))
                .query(Boolean.class)
                .single();
    }
}
