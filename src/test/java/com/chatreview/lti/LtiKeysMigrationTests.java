package com.chatreview.lti;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.support.RequiresDatabase;
import com.chatreview.support.TestDatabase;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * Registrations made before each had its own keys keep the trust of {@code /lti/jwks} (V44, V48) only for the first
 * tenant of a client id at a token endpoint's origin: a later tenant's registration of the same LMS's client, its URL
 * written otherwise, gets none; the first tenant's other deployments and another client keep theirs.
 */
@ExtendWith(RequiresDatabase.class)
class LtiKeysMigrationTests {

    @Test
    void theFirstTenantOfAClientAtAnOriginKeepsTheSharedTrustAndNoOtherDoes() throws Exception {
        try (TestDatabase.ServerDatabase database = TestDatabase.createServerDatabase("crs_lti_keys_migration")) {
            DriverManagerDataSource source =
                    new DriverManagerDataSource(database.url(), TestDatabase.user(), TestDatabase.password());
            Flyway.configure().dataSource(source).target("43").load().migrate();
            JdbcClient jdbc = JdbcClient.create(source);
            UUID school = tenant(jdbc, "school");
            UUID squatter = tenant(jdbc, "squatter");
            Instant start = Instant.parse("2026-01-01T00:00:00Z");
            UUID first = platform(jdbc, school, "client-a", "https://lms.example/mod/lti/token.php", start);
            UUID variant = platform(
                    jdbc, squatter, "client-a", "HTTPS://LMS.example:443/mod/lti/token.php/", start.plusSeconds(60));
            UUID again =
                    platform(jdbc, school, "client-a", "https://lms.example/mod/lti/token.php", start.plusSeconds(120));
            UUID otherClient = platform(jdbc, squatter, "client-b", "https://lms.example/mod/lti/token.php", start);

            Flyway.configure().dataSource(source).load().migrate();

            Map<UUID, Boolean> shared = jdbc
                    .sql("SELECT id, shared_jwks FROM lti_platforms")
                    .query((rs, row) -> Map.entry(rs.getObject(1, UUID.class), rs.getBoolean(2)))
                    .list()
                    .stream()
                    .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
            assertThat(shared)
                    .as("first %s variant %s again %s other %s", first, variant, again, otherClient)
                    .containsEntry(first, true)
                    .containsEntry(again, true)
                    .containsEntry(otherClient, true)
                    .as("the same LMS's client, its token URL written otherwise, by a later tenant")
                    .containsEntry(variant, false);
        }
    }

    private static UUID tenant(JdbcClient jdbc, String name) {
        UUID id = UUID.randomUUID();
        jdbc.sql("INSERT INTO tenants (id, name, created_at) VALUES (:id, :name, now())")
                .param("id", id)
                .param("name", name)
                .update();
        return id;
    }

    private static UUID platform(JdbcClient jdbc, UUID tenant, String client, String tokenUrl, Instant createdAt) {
        UUID id = UUID.randomUUID();
        jdbc.sql("""
                        INSERT INTO lti_platforms (id, tenant_id, issuer, client_id, auth_login_url, auth_token_url,
                                                   jwks_url, created_at)
                        VALUES (:id, :tenant, 'https://lms.example', :client, 'https://lms.example/auth', :token,
                                'https://lms.example/jwks', :created)""")
                .param("id", id)
                .param("tenant", tenant)
                .param("client", client)
                .param("token", tokenUrl)
                .param("created", java.sql.Timestamp.from(createdAt))
                .update();
        return id;
    }
}
