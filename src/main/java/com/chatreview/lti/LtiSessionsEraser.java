package com.chatreview.lti;

import com.chatreview.privacy.ErasureTally;
import com.chatreview.privacy.UserDataEraser;
import com.chatreview.tenancy.TenantId;
import org.springframework.core.annotation.Order;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * The LTI module's part of a user's erasure: the sessions of their launches (who they are, from which course), early,
 * so that a page still open in the LMS can do nothing more for them while the rest is erased.
 */
@Component
@Order(15)
class LtiSessionsEraser implements UserDataEraser {

    private final JdbcClient jdbc;

    LtiSessionsEraser(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public void erase(TenantId tenantId, String userId, ErasureTally tally) {
        jdbc.sql("DELETE FROM lti_sessions WHERE tenant_id = :tenant AND user_id = :user")
                .param("tenant", tenantId.value())
                .param("user", userId)
                .update();
    }
}
