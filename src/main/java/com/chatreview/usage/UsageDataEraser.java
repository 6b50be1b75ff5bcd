package com.chatreview.usage;

import com.chatreview.privacy.ErasureTally;
import com.chatreview.privacy.UserDataEraser;
import com.chatreview.tenancy.TenantId;
import org.springframework.core.annotation.Order;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

/**
 * The usage module's part of a user's erasure: what the user's replies and reviews cost stays counted in the
 * tenant's totals and budgets, under the erasure's pseudonym instead of the user id; the user's days of the
 * per-user cap go.
 */
@Component
@Order(40)
class UsageDataEraser implements UserDataEraser {

    private final JdbcClient jdbc;

    UsageDataEraser(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public boolean holdsDataOf(TenantId tenantId, String userId) {
        return jdbc.sql("""
                        SELECT EXISTS (SELECT 1 FROM usage_user_days WHERE tenant_id = :tenant AND user_id = :user)
                            OR EXISTS (SELECT 1 FROM ai_usage WHERE tenant_id = :tenant AND user_id = :user)""")
                .param("tenant", tenantId.value())
                .param("user", userId)
                .query(Boolean.class)
                .single();
    }

    @Override
    @Transactional
    public void erase(TenantId tenantId, String userId, ErasureTally tally) {
        jdbc.sql("UPDATE ai_usage SET user_id = :pseudonym WHERE tenant_id = :tenant AND user_id = :user")
                .param("pseudonym", tally.pseudonym())
                .param("tenant", tenantId.value())
                .param("user", userId)
                .update();
        jdbc.sql("DELETE FROM usage_user_days WHERE tenant_id = :tenant AND user_id = :user")
                .param("tenant", tenantId.value())
                .param("user", userId)
                .update();
    }
}
