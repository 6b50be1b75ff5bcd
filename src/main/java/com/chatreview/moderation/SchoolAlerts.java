package com.chatreview.moderation;

import com.chatreview.database.Sql;
import com.chatreview.tenancy.TenantId;
import java.time.Clock;
import org.springframework.jdbc.core.simple.JdbcClient;

/** The tenants' {@link AlertSettings}, in {@code moderation_settings}. */
public class SchoolAlerts {

    private final JdbcClient jdbc;
    private final Clock clock;

    SchoolAlerts(JdbcClient jdbc, Clock clock) {
        this.jdbc = jdbc;
        this.clock = clock;
    }

    public AlertSettings of(TenantId tenantId) {
        return jdbc.sql("SELECT alert_categories, help_text FROM moderation_settings WHERE tenant_id = :tenant")
                .param("tenant", tenantId.value())
                .query((rs, n) -> new AlertSettings(
                        SafetyCategory.of(rs.getArray("alert_categories")), rs.getString("help_text")))
                .optional()
                .orElseGet(AlertSettings::defaults);
    }

    public AlertSettings set(TenantId tenantId, AlertSettings settings) {
        jdbc.sql("""
                        INSERT INTO moderation_settings (tenant_id, alert_categories, help_text, updated_at)
                        VALUES (:tenant, :categories, :helpText, :at)
                        ON CONFLICT (tenant_id) DO UPDATE SET alert_categories = excluded.alert_categories,
                            help_text = excluded.help_text, updated_at = excluded.updated_at""")
                .param("tenant", tenantId.value())
                .param(
                        "categories",
                        settings.alertCategories().stream()
                                .map(SafetyCategory::value)
                                .toArray(String[]::new))
                .param("helpText", settings.helpText())
                .param("at", Sql.at(Sql.now(clock)))
                .update();
        return of(tenantId);
    }
}
