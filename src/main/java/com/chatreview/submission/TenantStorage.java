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
     * Counts an upload's bytes against the tenant's allowance (its own, else the default), in the caller's
     * transaction (a failed upload gives them back by rolling back); one row's update decides between concurrent
     * uploads.
     *
     * @throws StorageQuotaExceeded when the upload would pass the allowance: nothing is counted
     */
    void reserve(UUID tenantId, long bytes) {
        jdbc.sql("INSERT INTO tenant_storage (tenant_id, used_bytes) VALUES (:tenant, 0) ON CONFLICT DO NOTHING")
                .param("tenant", tenantId)
                .update();
        boolean counted = jdbc.sql("""
                        UPDATE tenant_storage SET used_bytes = used_bytes + :bytes
                        WHERE tenant_id = :tenant AND used_bytes + :bytes <= COALESCE(allowance_bytes, :default)""")
                        .param("tenant", tenantId)
                        .param("bytes", bytes)
                        .param("default", defaultAllowance())
                        .update()
                == 1;
        if (!counted) {
            StorageUse use = use(tenantId);
            throw new StorageQuotaExceeded(use.usedBytes(), use.allowanceBytes(), bytes);
        }
    }

    /** Gives back the bytes of files deleted, in the caller's transaction (the one that deleted them). */
    void release(UUID tenantId, long bytes) {
        jdbc.sql("UPDATE tenant_storage SET used_bytes = GREATEST(0, used_bytes - :bytes) WHERE tenant_id = :tenant")
                .param("tenant", tenantId)
                .param("bytes", bytes)
                .update();
    }

    StorageUse use(UUID tenantId) {
        return jdbc.sql("SELECT used_bytes, allowance_bytes FROM tenant_storage WHERE tenant_id = :tenant")
                .param("tenant", tenantId)
                .query((rs, row) -> {
                    long allowance = rs.getLong("allowance_bytes");
                    boolean own = !rs.wasNull();
                    return new StorageUse(rs.getLong("used_bytes"), own ? allowance : defaultAllowance(), own);
                })
                .optional()
                .orElseGet(() -> new StorageUse(0, defaultAllowance(), false));
    }

    /** Gives the tenant an allowance of its own; {@code null}: the default again. Uploads stored stay stored. */
    StorageUse allow(UUID tenantId, Long allowanceBytes) {
        jdbc.sql("""
                        INSERT INTO tenant_storage (tenant_id, used_bytes, allowance_bytes) VALUES (:tenant, 0, :allowance)
                        ON CONFLICT (tenant_id) DO UPDATE SET allowance_bytes = EXCLUDED.allowance_bytes""")
                .param("tenant", tenantId)
                .param("allowance", allowanceBytes)
                .update();
        return use(tenantId);
    }

    private long defaultAllowance() {
        return settings.storagePerTenant().toBytes();
    }
}
