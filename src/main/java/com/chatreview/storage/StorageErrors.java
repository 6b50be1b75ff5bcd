package com.chatreview.storage;

import com.chatreview.kernel.ServiceError;

/** The failures of the storage module's API, each a fact. */
public final class StorageErrors {

    private StorageErrors() {}

    /** The files would take the tenant's stored files past its allowance: nothing of them was stored. */
    public static final class StorageQuotaExceeded extends ServiceError {
        StorageQuotaExceeded(long used, long limit, long adding) {
            super(
                    Code.STORAGE_QUOTA_EXCEEDED,
                    "The tenant stores " + used + " bytes of files of the " + limit + " it may; these files of "
                            + adding + " bytes would pass that, so nothing of them was stored",
                    "Ask the operator for a larger allowance (PUT /admin/v1/tenants/{tenantId}/storage for this"
                            + " tenant, LIMIT_STORAGE_BYTES_PER_TENANT for all), or store fewer or smaller files.");
        }
    }
}
