package com.chatreview.webhook;

import com.chatreview.database.Sql;
import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;

/** The {@code webhook_endpoints} table. */
class Endpoints {

    private static final String COLUMNS =
            "id, tenant_id, url, event_types, description, enabled, disabled_reason, created_at, updated_at";

    private final JdbcClient jdbc;

    Endpoints(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    void insert(WebhookEndpoint endpoint, byte[] sealedSecret) {
        jdbc.sql("""
                INSERT INTO webhook_endpoints (id, tenant_id, url, event_types, description, enabled, disabled_reason,
                                               secret_sealed, created_at, updated_at)
                VALUES (:id, :tenant, :url, :types::text[], :description, :enabled, :reason, :secret, :created,
                        :updated)""")
                .param("id", endpoint.id())
                .param("tenant", endpoint.tenantId())
                .param("url", endpoint.url())
                .param("types", arrayLiteral(endpoint.eventTypes()))
                .param("description", endpoint.description())
                .param("enabled", endpoint.enabled())
                .param("reason", endpoint.disabledReason())
                .param("secret", sealedSecret)
                .param("created", Sql.at(endpoint.createdAt()))
                .param("updated", Sql.at(endpoint.updatedAt()))
                .update();
    }

    /**
     * How many endpoints the tenant has, counted under a lock of the tenant's registrations (until the caller's
     * transaction ends), so that concurrent registrations cannot pass a cap together.
     */
    int countLocked(UUID tenantId) {
        jdbc.sql("SELECT pg_advisory_xact_lock(hashtextextended('webhook-endpoints:' || :tenant, 0))")
                .param("tenant", tenantId.toString())
                .query()
                .singleRow();
        return jdbc.sql("SELECT count(*) FROM webhook_endpoints WHERE tenant_id = :tenant")
                .param("tenant", tenantId)
                .query(Integer.class)
                .single();
    }

    List<WebhookEndpoint> ofTenant(UUID tenantId) {
        return jdbc.sql("SELECT " + COLUMNS
                        + " FROM webhook_endpoints WHERE tenant_id = :tenant ORDER BY created_at, id")
                .param("tenant", tenantId)
                .query(Endpoints::endpoint)
                .list();
    }

    List<WebhookEndpoint> enabledOf(UUID tenantId) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM webhook_endpoints WHERE tenant_id = :tenant AND enabled")
                .param("tenant", tenantId)
                .query(Endpoints::endpoint)
                .list();
    }

    /** The secrets that sign a delivery to the endpoint now: the current one, and the previous during a rotation. */
    List<byte[]> sealedSecrets(UUID endpointId, Instant now) {
        return jdbc.sql("SELECT secret_sealed, CASE WHEN previous_secret_until > :now THEN previous_secret_sealed END"
                        + " AS previous FROM webhook_endpoints WHERE id = :id")
                .param("now", Sql.at(now))
                .param("id", endpointId)
                .query((rs, row) -> {
                    List<byte[]> secrets = new ArrayList<>();
                    secrets.add(rs.getBytes("secret_sealed"));
                    byte[] previous = rs.getBytes("previous");
                    if (previous != null) {
                        secrets.add(previous);
                    }
                    return secrets;
                })
                .optional()
                .orElse(List.of());
    }

    /** The service gives up on an endpoint: it stays registered, sends nothing until the tenant enables it. */
    void disable(UUID endpointId, String reason, Instant now) {
        jdbc.sql("UPDATE webhook_endpoints SET enabled = false, disabled_reason = :reason, updated_at = :now"
                        + " WHERE id = :id AND enabled")
                .param("reason", reason)
                .param("now", Sql.at(now))
                .param("id", endpointId)
                .update();
    }

    Optional<WebhookEndpoint> find(UUID tenantId, UUID id) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM webhook_endpoints WHERE tenant_id = :tenant AND id = :id")
                .param("tenant", tenantId)
                .param("id", id)
                .query(Endpoints::endpoint)
                .optional();
    }

    void update(WebhookEndpoint endpoint) {
        jdbc.sql("""
                UPDATE webhook_endpoints SET url = :url, event_types = :types::text[], description = :description,
                    enabled = :enabled, disabled_reason = :reason, updated_at = :updated
                WHERE tenant_id = :tenant AND id = :id""")
                .param("url", endpoint.url())
                .param("types", arrayLiteral(endpoint.eventTypes()))
                .param("description", endpoint.description())
                .param("enabled", endpoint.enabled())
                .param("reason", endpoint.disabledReason())
                .param("updated", Sql.at(endpoint.updatedAt()))
                .param("tenant", endpoint.tenantId())
                .param("id", endpoint.id())
                .update();
    }

    /** The new secret signs from now on; the current one goes on signing until {@code previousUntil}. */
    boolean rotate(UUID tenantId, UUID id, byte[] sealedSecret, Instant previousUntil, Instant now) {
        return jdbc.sql("""
                UPDATE webhook_endpoints SET previous_secret_sealed = secret_sealed,
                    previous_secret_until = :until, secret_sealed = :secret, updated_at = :now
                WHERE tenant_id = :tenant AND id = :id""")
                        .param("until", Sql.at(previousUntil))
                        .param("secret", sealedSecret)
                        .param("now", Sql.at(now))
                        .param("tenant", tenantId)
                        .param("id", id)
                        .update()
                > 0;
    }

    boolean delete(UUID tenantId, UUID id) {
        return jdbc.sql("DELETE FROM webhook_endpoints WHERE tenant_id = :tenant AND id = :id")
                        .param("tenant", tenantId)
                        .param("id", id)
                        .update()
                > 0;
    }

    private static WebhookEndpoint endpoint(ResultSet rs, int row) throws SQLException {
        return new WebhookEndpoint(
                rs.getObject("id", UUID.class),
                rs.getObject("tenant_id", UUID.class),
                rs.getString("url"),
                eventTypes(rs.getArray("event_types")),
                rs.getString("description"),
                rs.getBoolean("enabled"),
                rs.getString("disabled_reason"),
                Sql.instantNotNull(rs, "created_at"),
                Sql.instantNotNull(rs, "updated_at"));
    }

    private static List<EventType> eventTypes(Array array) throws SQLException {
        List<EventType> types = new ArrayList<>();
        for (String name : (String[]) array.getArray()) {
            EventType.of(name).ifPresent(types::add); // a type a later version dropped is no longer sent
        }
        return types;
    }

    /** A PostgreSQL array literal of the types' wire names (letters, dots and underscores: nothing to escape). */
    private static String arrayLiteral(List<EventType> types) {
        return "{" + String.join(",", types.stream().map(EventType::wireName).toList()) + "}";
    }
}
