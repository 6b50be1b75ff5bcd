package com.chatreview.lti.course;

import com.chatreview.database.Sql;
import com.chatreview.lti.LtiDataEraser;
import com.chatreview.lti.launch.LtiLaunch;
import com.chatreview.tenancy.TenantId;
import java.time.Clock;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * The {@code lti_people} table: the name the LMS gave each of its users at their latest launch, for a teacher's page
 * to show whose submissions it lists. Erased with the user ({@link LtiDataEraser}).
 */
@Component
class LtiPeople {

    private final JdbcClient jdbc;
    private final Clock clock;

    LtiPeople(JdbcClient jdbc, Clock clock) {
        this.jdbc = jdbc;
        this.clock = clock;
    }

    void remember(LtiLaunch launch) {
        String name = launch.name();
        if (name == null || name.isBlank()) {
            return;
        }
        jdbc.sql("""
                        INSERT INTO lti_people (tenant_id, user_id, name, seen_at) VALUES (:tenant, :user, :name, :now)
                        ON CONFLICT (tenant_id, user_id) DO UPDATE SET name = excluded.name, seen_at = excluded.seen_at""")
                .param("tenant", launch.platform().tenantId().value())
                .param("user", launch.studentId())
                .param("name", name.length() > 200 ? name.substring(0, 200) : name)
                .param("now", Sql.at(clock.instant()))
                .update();
    }

    /** The names of those of these users the LMS named, by user id. */
    Map<String, String> namesOf(TenantId tenantId, Collection<String> userIds) {
        Map<String, String> names = new LinkedHashMap<>();
        if (userIds.isEmpty()) {
            return names;
        }
        jdbc.sql("SELECT user_id, name FROM lti_people WHERE tenant_id = :tenant AND user_id IN (:users)")
                .param("tenant", tenantId.value())
                .param("users", userIds)
                .query((rs, n) -> names.put(rs.getString("user_id"), rs.getString("name")))
                .list();
        return names;
    }
}
