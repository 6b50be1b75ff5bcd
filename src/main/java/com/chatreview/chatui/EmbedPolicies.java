package com.chatreview.chatui;

import com.chatreview.database.Sql;
import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The {@code chat_ui_settings} table: a row per tenant that has set something. */
@Repository
class EmbedPolicies {

    private final JdbcClient jdbc;

    EmbedPolicies(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    Optional<EmbedPolicy> find(UUID tenantId) {
        return jdbc.sql("""
                SELECT tenant_id, require_embed_token, frame_ancestors, allowed_origins
                FROM chat_ui_settings WHERE tenant_id = :tenant""")
                .param("tenant", tenantId)
                .query(EmbedPolicies::policy)
                .optional();
    }

    void save(EmbedPolicy policy, Instant now) {
        jdbc.sql("""
                INSERT INTO chat_ui_settings (tenant_id, require_embed_token, frame_ancestors, allowed_origins,
                                              updated_at)
                VALUES (:tenant, :required, :ancestors::text[], :origins::text[], :now)
                ON CONFLICT (tenant_id) DO UPDATE SET require_embed_token = excluded.require_embed_token,
                    frame_ancestors = excluded.frame_ancestors, allowed_origins = excluded.allowed_origins,
                    updated_at = excluded.updated_at""")
                .param("tenant", policy.tenantId())
                .param("required", policy.requireEmbedToken())
                .param("ancestors", arrayLiteral(policy.frameAncestors()))
                .param("origins", arrayLiteral(policy.allowedOrigins()))
                .param("now", Sql.at(now))
                .update();
    }

    private static EmbedPolicy policy(ResultSet rs, int row) throws SQLException {
        return new EmbedPolicy(
                rs.getObject("tenant_id", UUID.class),
                rs.getBoolean("require_embed_token"),
                list(rs.getArray("frame_ancestors")),
                list(rs.getArray("allowed_origins")));
    }

    private static @Nullable List<String> list(@Nullable Array array) throws SQLException {
        return array == null ? null : Arrays.asList((String[]) array.getArray());
    }

    /**
     * A PostgreSQL array literal; the entries were checked ({@link PolicyChange}) to hold no quote, comma, brace,
     * backslash or space, so they need no escaping, but are quoted anyway.
     */
    private static @Nullable String arrayLiteral(@Nullable List<String> values) {
        if (values == null) {
            return null;
        }
        return "{" + String.join(",", values.stream().map(v -> "\"" + v + "\"").toList()) + "}";
    }
}
