package com.chatreview.tenancy;

import com.chatreview.database.Sql;
import java.util.List;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The {@code tenants} table. */
@Repository
class Tenants {

    private final JdbcClient jdbc;

    Tenants(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    void insert(TenantRecord tenant) {
        jdbc.sql("INSERT INTO tenants (id, name, created_at) VALUES (:id, :name, :created)")
                .param("id", tenant.id())
                .param("name", tenant.name())
                .param("created", Sql.at(tenant.createdAt()))
                .update();
    }

    List<TenantRecord> all() {
        return jdbc.sql("SELECT id, name, created_at FROM tenants ORDER BY created_at, id")
                .query((rs, n) -> new TenantRecord(
                        rs.getObject("id", UUID.class), rs.getString("name"), Sql.instantNotNull(rs, "created_at")))
                .list();
    }

    boolean exists(UUID id) {
        return jdbc.sql("SELECT 1 FROM tenants WHERE id = :id")
                .param("id", id)
                .query()
                .optionalValue()
                .isPresent();
    }

    boolean any() {
        return jdbc.sql("SELECT 1 FROM tenants LIMIT 1").query().optionalValue().isPresent();
    }
}
