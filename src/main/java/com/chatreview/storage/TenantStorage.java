package com.chatreview.storage;

import com.chatreview.storage.StorageErrors.StorageQuotaExceeded;
import com.chatreview.tenancy.TenantId;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

/**
 * The {@code tenant_storage} table: what each tenant's stored files take (submissions' uploads, homework's files),
 * reserved and given back in the transactions that store and delete them.
 */
@Service
public class TenantStorage {

    private final JdbcClient jdbc;
    private final StorageSettings settings;

    TenantStorage(JdbcClient jdbc, StorageSettings settings) {
        this.jdbc = jdbc;
        this.settings = settings;
    }

    /**
     * Counts files' bytes against the tenant's allowance (its own, else the default), in the caller's
     * transaction (a failed upload gives them back by rolling back); one row's update decides between concurrent
     * uploads.
     *
     * @throws StorageQuotaExceeded when the files would pass the allowance: nothing is counted
     */
    public void reserve(TenantId tenant, long bytes) {
        UUID tenantId = tenant.value();
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
            StorageUse use = use(tenant);
            throw new StorageQuotaExceeded(use.usedBytes(), use.allowanceBytes(), bytes);
        }
    }

    /** Gives back the bytes of files deleted, in the caller's transaction (the one that deleted them). */
    public void release(TenantId tenant, long bytes) {
        UUID tenantId = tenant.value();
        jdbc.sql("UPDATE tenant_storage SET used_bytes = GREATEST(0, used_bytes - :bytes) WHERE tenant_id = :tenant")
                .param("tenant", tenantId)
                .param("bytes", bytes)
                .update();
    }

    public StorageUse use(TenantId tenant) {
        UUID tenantId = tenant.value();
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
    public StorageUse allow(TenantId tenant, @Nullable Long allowanceBytes) {
        UUID tenantId = tenant.value();
        jdbc.sql("""
                        INSERT INTO tenant_storage (tenant_id, used_bytes, allowance_bytes) VALUES (:tenant, 0, :allowance)
                        ON CONFLICT (tenant_id) DO UPDATE SET allowance_bytes = EXCLUDED.allowance_bytes""")
                .param("tenant", tenantId)
                .param("allowance", allowanceBytes)
                .update();
        return use(tenant);
    }

    private long defaultAllowance() {
        return settings.perTenant().toBytes();
    }
}
