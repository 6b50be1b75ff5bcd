package com.chatreview.chat;

import com.chatreview.database.Sql;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The {@code users} table: a user exists from the first chat or connection made for it. */
@Repository
class Users {

    private final JdbcClient jdbc;

    Users(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** When the tenant's user was first seen; empty for a user the tenant does not have. */
    Optional<Instant> firstSeen(UUID tenantId, String userId) {
        return jdbc.sql("SELECT created_at FROM users WHERE tenant_id = :tenant AND user_id = :user")
                .param("tenant", tenantId)
                .param("user", userId)
                .query((rs, n) -> Sql.instantNotNull(rs, "created_at"))
                .optional();
    }

    /** Forgets the user; fails (a foreign key) while a chat of theirs is left. */
    void delete(UUID tenantId, String userId) {
        jdbc.sql("DELETE FROM users WHERE tenant_id = :tenant AND user_id = :user")
                .param("tenant", tenantId)
                .param("user", userId)
                .update();
    }

    /** Records the user if it is new; true when it was. */
    boolean ensure(UUID tenantId, String userId, Instant now) {
        return jdbc.sql("""
                INSERT INTO users (tenant_id, user_id, created_at) VALUES (:tenant, :user, :now)
                ON CONFLICT DO NOTHING""")
                        .param("tenant", tenantId)
                        .param("user", userId)
                        .param("now", Sql.at(now))
                        .update()
                == 1;
    }
}
