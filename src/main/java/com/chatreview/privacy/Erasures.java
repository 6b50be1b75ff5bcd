package com.chatreview.privacy;

import com.chatreview.database.Sql;
import com.chatreview.tenancy.TenantId;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The {@code erasures} table. */
@Repository
class Erasures {

    private static final String COLUMNS =
            "id, tenant_id, user_id_hash, status, started_at, finished_at, chats, messages, submissions, files";

    private final JdbcClient jdbc;

    Erasures(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    void insert(TenantId tenantId, UUID id, String userIdHash, Instant now) {
        jdbc.sql("""
                        INSERT INTO erasures (id, tenant_id, user_id_hash, status, started_at)
                        VALUES (:id, :tenant, :hash, 'running', :now)""")
                .param("id", id)
                .param("tenant", tenantId.value())
                .param("hash", userIdHash)
                .param("now", Sql.at(now))
                .update();
    }

    Optional<Erasure> running(TenantId tenantId, String userIdHash) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM erasures WHERE tenant_id = :tenant AND user_id_hash = :hash"
                        + " AND status = 'running'")
                .param("tenant", tenantId.value())
                .param("hash", userIdHash)
                .query(Erasures::erasure)
                .optional();
    }

    Optional<Erasure> find(TenantId tenantId, UUID id) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM erasures WHERE id = :id AND tenant_id = :tenant")
                .param("id", id)
                .param("tenant", tenantId.value())
                .query(Erasures::erasure)
                .optional();
    }

    /** The erasure's tenant, whatever it is: for the job, which carries only the erasure's id. */
    Optional<TenantId> tenantOf(UUID id) {
        return jdbc.sql("SELECT tenant_id FROM erasures WHERE id = :id")
                .param("id", id)
                .query((rs, n) -> TenantId.of(rs.getObject(1, UUID.class)))
                .optional();
    }

    Optional<String> hashOf(UUID id) {
        return jdbc.sql("SELECT user_id_hash FROM erasures WHERE id = :id")
                .param("id", id)
                .query((rs, n) -> rs.getString(1))
                .optional();
    }

    void done(UUID id, Instant now) {
        jdbc.sql("UPDATE erasures SET status = 'done', finished_at = :now WHERE id = :id AND status = 'running'")
                .param("id", id)
                .param("now", Sql.at(now))
                .update();
    }

    private static Erasure erasure(ResultSet rs, int row) throws SQLException {
        return new Erasure(
                rs.getObject("id", UUID.class),
                rs.getString("user_id_hash"),
                Erasure.Status.valueOf(rs.getString("status").toUpperCase(Locale.ROOT)),
                Sql.instantNotNull(rs, "started_at"),
                Sql.instant(rs, "finished_at"),
                rs.getInt("chats"),
                rs.getInt("messages"),
                rs.getInt("submissions"),
                rs.getInt("files"));
    }
}
