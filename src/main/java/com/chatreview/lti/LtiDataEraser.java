package com.chatreview.lti;

import com.chatreview.privacy.ErasureTally;
import com.chatreview.privacy.UserDataEraser;
import com.chatreview.tenancy.TenantId;
import java.util.List;
import org.springframework.core.annotation.Order;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * The LTI module's part of a user's erasure: the sessions of their launches (who they are, from which course), early,
 * so that a page still open in the LMS can do nothing more for them while the rest is erased; then where their scores
 * go and the scores not yet sent (nothing more goes to the gradebook for them; what it holds is the LMS's), and the
 * name the LMS gave them.
 */
@Component
@Order(15)
public class LtiDataEraser implements UserDataEraser {

    private final JdbcClient jdbc;

    LtiDataEraser(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** A learner who launched but never handed in is known from these alone. */
    @Override
    public boolean holdsDataOf(TenantId tenantId, String userId) {
        return jdbc.sql("""
                        SELECT EXISTS (SELECT 1 FROM lti_sessions WHERE tenant_id = :tenant AND user_id = :user)
                            OR EXISTS (SELECT 1 FROM lti_grade_targets WHERE tenant_id = :tenant AND user_id = :user)
                            OR EXISTS (SELECT 1 FROM lti_scores WHERE tenant_id = :tenant AND user_id = :user)
                            OR EXISTS (SELECT 1 FROM lti_people WHERE tenant_id = :tenant AND user_id = :user)""")
                .param("tenant", tenantId.value())
                .param("user", userId)
                .query(Boolean.class)
                .single();
    }

    @Override
    public void erase(TenantId tenantId, String userId, ErasureTally tally) {
        for (String table : List.of("lti_sessions", "lti_grade_targets", "lti_scores", "lti_people")) {
            jdbc.sql("DELETE FROM " + table + " WHERE tenant_id = :tenant AND user_id = :user")
                    .param("tenant", tenantId.value())
                    .param("user", userId)
                    .update();
        }
    }
}
