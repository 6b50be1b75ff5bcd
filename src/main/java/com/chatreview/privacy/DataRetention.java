package com.chatreview.privacy;

import com.chatreview.database.Sql;
import com.chatreview.kernel.InvalidInput;
import com.chatreview.tenancy.TenantId;
import java.sql.Types;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

/**
 * Each tenant's retention setting, and the daily run that applies them all ({@link PrivacyJobs}: once a day for the
 * whole cluster, on one node).
 */
@Service
public class DataRetention {

    private static final Logger log = LoggerFactory.getLogger(DataRetention.class);

    private final JdbcClient jdbc;
    private final List<ExpiredDataEraser> erasers;
    private final Clock clock;

    DataRetention(JdbcClient jdbc, List<ExpiredDataEraser> erasers, Clock clock) {
        this.jdbc = jdbc;
        this.erasers = List.copyOf(erasers);
        this.clock = clock;
    }

    public Retention of(TenantId tenantId) {
        return jdbc.sql("SELECT messages_days, submissions_days FROM retention_settings WHERE tenant_id = :tenant")
                .param("tenant", tenantId.value())
                .query((rs, n) -> new Retention(
                        rs.getObject("messages_days", Integer.class), rs.getObject("submissions_days", Integer.class)))
                .optional()
                .orElse(Retention.KEEP_ALL);
    }

    /** Replaces the tenant's setting; the next daily run applies it. */
    public Retention set(TenantId tenantId, Retention retention) {
        inRange("messages_days", retention.messagesDays());
        inRange("submissions_days", retention.submissionsDays());
        jdbc.sql("""
                        INSERT INTO retention_settings (tenant_id, messages_days, submissions_days, updated_at)
                        VALUES (:tenant, :messages, :submissions, :now)
                        ON CONFLICT (tenant_id) DO UPDATE SET messages_days = excluded.messages_days,
                            submissions_days = excluded.submissions_days, updated_at = excluded.updated_at""")
                .param("tenant", tenantId.value())
                .param("messages", retention.messagesDays(), Types.INTEGER)
                .param("submissions", retention.submissionsDays(), Types.INTEGER)
                .param("now", Sql.at(clock.instant()))
                .update();
        return of(tenantId);
    }

    /** The daily run: every tenant's setting applied as of {@code now}. */
    void applyAll(Instant now) {
        Map<TenantId, Retention> settings = jdbc
                .sql("""
                        SELECT tenant_id, messages_days, submissions_days FROM retention_settings
                        WHERE messages_days IS NOT NULL OR submissions_days IS NOT NULL""")
                .query((rs, n) -> Map.entry(
                        TenantId.of(rs.getObject("tenant_id", UUID.class)),
                        new Retention(
                                rs.getObject("messages_days", Integer.class),
                                rs.getObject("submissions_days", Integer.class))))
                .list()
                .stream()
                .collect(java.util.stream.Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
        settings.forEach((tenant, retention) -> {
            int erased = 0;
            for (ExpiredDataEraser eraser : erasers) {
                erased += eraser.eraseExpired(tenant, retention, now);
            }
            if (erased > 0) {
                log.info("Retention: {} chats and submissions of tenant {} were past its setting", erased, tenant);
            }
        });
    }

    private static void inRange(String field, @Nullable Integer days) {
        if (days != null && (days < 1 || days > Retention.MAX_DAYS)) {
            throw InvalidInput.field(
                    field,
                    "must be between 1 and " + Retention.MAX_DAYS + " days, or null",
                    "Give a number of days, or null to keep the data until it is deleted.");
        }
    }
}
