package com.chatreview.tenancy;

import com.chatreview.database.Sql;
import com.chatreview.kernel.Sha256;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The {@code api_keys} table, and how a key looks: {@code crs_} and 43 characters of 256 random bits. */
@Repository
class ApiKeys {

    static final String PREFIX = "crs_";
    private static final SecureRandom RANDOM = new SecureRandom();

    private final JdbcClient jdbc;

    ApiKeys(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    record Issued(UUID id, String apiKey, Instant createdAt) {}

    Issued issue(UUID tenantId, Instant now) {
        byte[] secret = new byte[32];
        RANDOM.nextBytes(secret);
        String key = PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
        UUID id = UUID.randomUUID();
        jdbc.sql("""
                INSERT INTO api_keys (id, tenant_id, key_hash, key_prefix, created_at)
                VALUES (:id, :tenant, :hash, :prefix, :now)""")
                .param("id", id)
                .param("tenant", tenantId)
                .param("hash", hash(key))
                .param("prefix", key.substring(0, 10))
                .param("now", Sql.at(now))
                .update();
        return new Issued(id, key, now);
    }

    Optional<Tenant> findActive(String key) {
        return jdbc.sql("SELECT id, tenant_id FROM api_keys WHERE key_hash = :hash AND revoked_at IS NULL")
                .param("hash", hash(key))
                .query((rs, n) ->
                        new Tenant(TenantId.of(rs.getObject("tenant_id", UUID.class)), rs.getObject("id", UUID.class)))
                .optional();
    }

    /** The hashes of every key not revoked. */
    java.util.List<byte[]> activeHashes() {
        return jdbc.sql("SELECT key_hash FROM api_keys WHERE revoked_at IS NULL")
                .query((rs, n) -> rs.getBytes("key_hash"))
                .list();
    }

    /** Whether an active key of the tenant was revoked now. */
    boolean revoke(UUID tenantId, UUID keyId, Instant now) {
        return jdbc.sql("""
                UPDATE api_keys SET revoked_at = COALESCE(revoked_at, :now)
                WHERE id = :id AND tenant_id = :tenant""")
                        .param("now", Sql.at(now))
                        .param("id", keyId)
                        .param("tenant", tenantId)
                        .update()
                > 0;
    }

    static byte[] hash(String key) {
        return Sha256.of(key);
    }
}
