package com.chatreview.idempotency;

import com.chatreview.privacy.ErasureTally;
import com.chatreview.privacy.UserDataEraser;
import com.chatreview.tenancy.TenantId;
import org.springframework.core.annotation.Order;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * The idempotency module's part of a user's erasure: the answers kept for a retried request that show the user's
 * data (a chat created for them names them as {@code user_id}, a submission as {@code studentId}), found in the
 * answer as the service wrote it.
 */
@Component
@Order(50)
class IdempotencyDataEraser implements UserDataEraser {

    private final JdbcClient jdbc;
    private final JsonMapper json;

    IdempotencyDataEraser(JdbcClient jdbc, JsonMapper json) {
        this.jdbc = jdbc;
        this.json = json;
    }

    @Override
    public void erase(TenantId tenantId, String userId, ErasureTally tally) {
        String quoted = json.writeValueAsString(userId);
        jdbc.sql("""
                        DELETE FROM idempotency_records
                        WHERE tenant_id = :tenant
                          AND (strpos(response_body, :asUser) > 0 OR strpos(response_body, :asStudent) > 0)""")
                .param("tenant", tenantId.value())
                .param("asUser", "\"user_id\":" + quoted)
                .param("asStudent", "\"studentId\":" + quoted)
                .update();
    }
}
