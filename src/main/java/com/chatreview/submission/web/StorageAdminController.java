package com.chatreview.submission.web;

import com.chatreview.storage.StorageUse;
import com.chatreview.submission.SubmissionManagement;
import com.chatreview.tenancy.Tenancy;
import com.chatreview.tenancy.TenantId;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/** The operator's view and setting of a tenant's storage allowance (behind {@code X-Admin-Token}, like all of /admin). */
@RestController
@Tag(name = "Admin")
@SecurityRequirement(name = "admin-token")
class StorageAdminController {

    private final Tenancy tenancy;
    private final SubmissionManagement submissions;

    StorageAdminController(Tenancy tenancy, SubmissionManagement submissions) {
        this.tenancy = tenancy;
        this.submissions = submissions;
    }

    record Allowance(@JsonProperty("allowance_bytes") Long allowanceBytes) {}

    record Storage(
            @JsonProperty("tenant_id") String tenantId,
            @JsonProperty("used_bytes") long usedBytes,
            @JsonProperty("allowance_bytes") long allowanceBytes,
            @JsonProperty("own_allowance") boolean ownAllowance) {
        static Storage of(TenantId tenant, StorageUse use) {
            return new Storage(tenant.toString(), use.usedBytes(), use.allowanceBytes(), use.ownAllowance());
        }
    }

    @GetMapping("/admin/v1/tenants/{tenantId}/storage")
    @Operation(summary = "What a tenant's uploaded files take, and the most they may")
    Storage storage(@PathVariable String tenantId) {
        TenantId tenant = tenancy.existing(tenantId);
        return Storage.of(tenant, submissions.storage(tenant));
    }

    @PutMapping("/admin/v1/tenants/{tenantId}/storage")
    @Operation(
            summary = "Give a tenant a storage allowance of its own",
            description = "allowance_bytes: the most the tenant's files may take, in bytes; null for the service's"
                    + " default (LIMIT_STORAGE_BYTES_PER_TENANT). Files already stored stay; past the allowance,"
                    + " uploads are 403 STORAGE_QUOTA_EXCEEDED.")
    Storage allow(@PathVariable String tenantId, @RequestBody Allowance allowance) {
        TenantId tenant = tenancy.existing(tenantId);
        return Storage.of(tenant, submissions.allowStorage(tenant, allowance.allowanceBytes()));
    }
}
