package com.chatreview.lti;

import com.chatreview.database.Sql;
import com.chatreview.tenancy.TenantId;
import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;

/** The {@code lti_platforms} table. */
class Platforms {

    private static final String COLUMNS = "id, tenant_id, issuer, client_id, deployment_ids, auth_login_url,"
            + " auth_token_url, jwks_url, created_at";

    private final JdbcClient jdbc;

    Platforms(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** Inserts the platform; false if its issuer and client id are registered already. */
    boolean insert(LtiPlatform platform) {
        return jdbc.sql("""
                        INSERT INTO lti_platforms (id, tenant_id, issuer, client_id, deployment_ids, auth_login_url,
                                                   auth_token_url, jwks_url, created_at)
                        VALUES (:id, :tenant, :issuer, :client, :deployments::text[], :login, :token, :jwks, :created)
                        ON CONFLICT (issuer, client_id) DO NOTHING""")
                        .param("id", platform.id())
                        .param("tenant", platform.tenantId().value())
                        .param("issuer", platform.issuer())
                        .param("client", platform.clientId())
                        .param("deployments", platform.deploymentIds().toArray(String[]::new))
                        .param("login", platform.authLoginUrl())
                        .param("token", platform.authTokenUrl())
                        .param("jwks", platform.jwksUrl())
                        .param("created", Sql.at(platform.createdAt()))
                        .update()
                == 1;
    }

    /**
     * How many platforms the tenant has, counted under a lock of the tenant's registrations (until the caller's
     * transaction ends), so that concurrent registrations cannot pass a cap together.
     */
    int countLocked(TenantId tenant) {
        jdbc.sql("SELECT pg_advisory_xact_lock(hashtextextended('lti-platforms:' || :tenant, 0))")
                .param("tenant", tenant.toString())
                .query()
                .singleRow();
        return jdbc.sql("SELECT count(*) FROM lti_platforms WHERE tenant_id = :tenant")
                .param("tenant", tenant.value())
                .query(Integer.class)
                .single();
    }

    List<LtiPlatform> ofTenant(TenantId tenant) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM lti_platforms WHERE tenant_id = :tenant ORDER BY created_at, id")
                .param("tenant", tenant.value())
                .query(Platforms::platform)
                .list();
    }

    Optional<LtiPlatform> find(TenantId tenant, UUID id) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM lti_platforms WHERE tenant_id = :tenant AND id = :id")
                .param("tenant", tenant.value())
                .param("id", id)
                .query(Platforms::platform)
                .optional();
    }

    /** The registrations a launch with this issuer (and client id, when the platform sends it) may be for. */
    List<LtiPlatform> byIssuer(String issuer, String clientId) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM lti_platforms WHERE issuer = :issuer"
                        + " AND (:client = '' OR client_id = :client) ORDER BY created_at, id LIMIT 2")
                .param("issuer", issuer)
                .param("client", clientId)
                .query(Platforms::platform)
                .list();
    }

    /** The platform a login's state was made for, if it is still registered. */
    Optional<LtiPlatform> byId(UUID id) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM lti_platforms WHERE id = :id")
                .param("id", id)
                .query(Platforms::platform)
                .optional();
    }

    boolean delete(TenantId tenant, UUID id) {
        return jdbc.sql("DELETE FROM lti_platforms WHERE tenant_id = :tenant AND id = :id")
                        .param("tenant", tenant.value())
                        .param("id", id)
                        .update()
                == 1;
    }

    private static LtiPlatform platform(ResultSet rs, int row) throws SQLException {
        Array deployments = rs.getArray("deployment_ids");
        return new LtiPlatform(
                rs.getObject("id", UUID.class),
                TenantId.of(rs.getObject("tenant_id", UUID.class)),
                rs.getString("issuer"),
                rs.getString("client_id"),
                List.of((String[]) deployments.getArray()),
                rs.getString("auth_login_url"),
                rs.getString("auth_token_url"),
                rs.getString("jwks_url"),
                Sql.instantNotNull(rs, "created_at"));
    }
}
