package com.chatreview.lti.platforms;

import com.chatreview.database.Sql;
import com.chatreview.lti.LtiPlatform;
import com.chatreview.tenancy.TenantId;
import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/** The {@code lti_platforms} table. */
@Component
public class Platforms {

    private static final String COLUMNS = "p.id, p.tenant_id, p.issuer, p.client_id, p.auth_login_url,"
            + " p.auth_token_url, p.jwks_url, p.created_at, ARRAY(SELECT d.deployment_id FROM lti_deployments d"
            + " WHERE d.platform_id = p.id ORDER BY d.position) AS deployment_ids";

    private final JdbcClient jdbc;

    Platforms(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * Inserts the platform with its deployments; the first of its deployments registered already (by any tenant,
     * under the same issuer and client id) if there is one, and then the caller's transaction must not commit.
     */
    Optional<String> insert(LtiPlatform platform) {
        jdbc.sql("""
                INSERT INTO lti_platforms (id, tenant_id, issuer, client_id, auth_login_url, auth_token_url, jwks_url,
                                           created_at)
                VALUES (:id, :tenant, :issuer, :client, :login, :token, :jwks, :created)""")
                .param("id", platform.id())
                .param("tenant", platform.tenantId().value())
                .param("issuer", platform.issuer())
                .param("client", platform.clientId())
                .param("login", platform.authLoginUrl())
                .param("token", platform.authTokenUrl())
                .param("jwks", platform.jwksUrl())
                .param("created", Sql.at(platform.createdAt()))
                .update();
        List<String> deployments = platform.deploymentIds();
        for (int position = 0; position < deployments.size(); position++) {
            int inserted = jdbc.sql("""
                            INSERT INTO lti_deployments (issuer, client_id, deployment_id, platform_id, position)
                            VALUES (:issuer, :client, :deployment, :platform, :position)
                            ON CONFLICT DO NOTHING""")
                    .param("issuer", platform.issuer())
                    .param("client", platform.clientId())
                    .param("deployment", deployments.get(position))
                    .param("platform", platform.id())
                    .param("position", position)
                    .update();
            if (inserted == 0) {
                return Optional.of(deployments.get(position));
            }
        }
        return Optional.empty();
    }

    /**
     * Whether another tenant registered this client id at this token endpoint, the endpoints compared by their origin
     * (scheme, host and port, as {@link LtiPlatform#originOf} writes it: {@code HTTPS://LMS.example:443/token/} and
     * {@code https://lms.example/token} are one LMS's). Asked under a lock of the pair (until the caller's
     * transaction ends), so that two tenants registering it at once cannot both pass.
     */
    boolean clientHeldByAnother(TenantId tenant, String clientId, String tokenUrl) {
        String origin = Objects.requireNonNullElse(LtiPlatform.originOf(tokenUrl), tokenUrl);
        jdbc.sql("SELECT pg_advisory_xact_lock(hashtextextended('lti-client:' || :client || ' ' || :origin, 0))")
                .param("client", clientId)
                .param("origin", origin)
                .query()
                .singleRow();
        return jdbc
                .sql("SELECT auth_token_url FROM lti_platforms WHERE client_id = :client AND tenant_id <> :tenant")
                .param("client", clientId)
                .param("tenant", tenant.value())
                .query((rs, row) -> rs.getString(1))
                .list()
                .stream()
                .anyMatch(held -> origin.equals(Objects.requireNonNullElse(LtiPlatform.originOf(held), held)));
    }

    /** Whether a login of the platform has named a storage frame (it keeps data for the tool in the browser). */
    public boolean storageSeen(UUID platform) {
        return jdbc.sql("SELECT platform_storage_seen_at IS NOT NULL FROM lti_platforms WHERE id = :id")
                .param("id", platform)
                .query(Boolean.class)
                .optional()
                .orElse(false);
    }

    public void sawStorage(UUID platform) {
        jdbc.sql("UPDATE lti_platforms SET platform_storage_seen_at = now() WHERE id = :id"
                        + " AND platform_storage_seen_at IS NULL")
                .param("id", platform)
                .update();
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
        return jdbc.sql("SELECT " + COLUMNS
                        + " FROM lti_platforms p WHERE p.tenant_id = :tenant ORDER BY p.created_at, p.id")
                .param("tenant", tenant.value())
                .query(Platforms::platform)
                .list();
    }

    public Optional<LtiPlatform> find(TenantId tenant, UUID id) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM lti_platforms p WHERE p.tenant_id = :tenant AND p.id = :id")
                .param("tenant", tenant.value())
                .param("id", id)
                .query(Platforms::platform)
                .optional();
    }

    /**
     * The registrations a login may be for: those of the issuer (and of the client id and the deployment, when the
     * platform names them), two at most (two mean it is not told which).
     */
    public List<LtiPlatform> forLogin(String issuer, String clientId, String deploymentId) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM lti_platforms p WHERE p.issuer = :issuer"
                        + " AND (:client = '' OR p.client_id = :client)"
                        + " AND (:deployment = '' OR EXISTS (SELECT 1 FROM lti_deployments d WHERE d.platform_id = p.id"
                        + " AND d.deployment_id = :deployment)) ORDER BY p.created_at, p.id LIMIT 2")
                .param("issuer", issuer)
                .param("client", clientId)
                .param("deployment", deploymentId)
                .query(Platforms::platform)
                .list();
    }

    /** The platform a login's state was made for, if it is still registered. */
    public Optional<LtiPlatform> byId(UUID id) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM lti_platforms p WHERE p.id = :id")
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
