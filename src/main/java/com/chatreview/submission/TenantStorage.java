package com.chatreview.submission;

import com.chatreview.submission.SubmissionErrors.StorageQuotaExceeded;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The {@code tenant_storage} table: what each tenant's uploaded files take. */
@Repository
class TenantStorage {

    private final JdbcClient jdbc;
    private final SubmissionSettings settings;

    TenantStorage(JdbcClient jdbc, SubmissionSettings settings) {
        this.jdbc = jdbc;
        this.settings = settings;
    }

    /**
     * Counts an upload's bytes against the tenant's allowance, in the caller's transaction (a failed upload gives
     * them back by rolling back); one row's update decides between concurrent uploads.
     *
     * @throws StorageQuotaExceeded when the upload would pass the allowance: nothing is counted
     */
    void reserve(UUID tenantId, long bytes) {
        long limit = settings.storagePerTenant().toBytes();
        boolean counted = bytes <= limit
                && jdbc.sql("""
                                INSERT INTO tenant_storage (tenant_id, used_bytes) VALUES (:tenant, :bytes)
                                ON CONFLICT (tenant_id) DO UPDATE
                                SET used_bytes = tenant_storage.used_bytes + EXCLUDED.used_bytes
                                WHERE tenant_storage.used_bytes + EXCLUDED.used_bytes <= :limit""")
                                .param("tenant", tenantId)
                                .param("bytes", bytes)
                                .param("limit", limit)
                                .update()
                        == 1;
        if (!counted) {
            throw new StorageQuotaExceeded(used(tenantId), limit, bytes);
        }
    }

    long used(UUID tenantId) {
        return jdbc.sql("SELECT used_bytes FROM tenant_storage WHERE tenant_id = :tenant")
                .param("tenant", tenantId)
                .query(Long.class)
                .optional()
                .orElse(0L);
    }
}
