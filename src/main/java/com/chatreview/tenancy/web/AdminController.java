package com.chatreview.tenancy.web;

import com.chatreview.tenancy.Tenancy;
import com.chatreview.tenancy.TenantRecord;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.time.Instant;
import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** The operator's API (docs/api.md, Authentication): tenants and their keys, behind {@code X-Admin-Token}. */
@RestController
@RequestMapping("/admin/v1/tenants")
@Tag(name = "Admin", description = "Tenants and API keys (operator only)")
@SecurityRequirement(name = "admin-token")
class AdminController {

    private final Tenancy tenancy;

    AdminController(Tenancy tenancy) {
        this.tenancy = tenancy;
    }

    record CreateTenantRequest(String name) {}

    record CreatedTenant(
            String id,
            String name,
            @JsonProperty("api_key") String apiKey,
            @JsonProperty("created_at") Instant createdAt) {}

    record TenantSummary(
            String id,
            String name,
            @JsonProperty("created_at") Instant createdAt) {
        static TenantSummary of(TenantRecord tenant) {
            return new TenantSummary(tenant.id().toString(), tenant.name(), tenant.createdAt());
        }
    }

    record TenantList(List<TenantSummary> tenants) {}

    record IssuedKey(
            String id,
            @JsonProperty("api_key") String apiKey,
            @JsonProperty("created_at") Instant createdAt) {}

    @PostMapping
    @Operation(summary = "Create a tenant and its first API key (shown once)")
    ResponseEntity<CreatedTenant> create(@RequestBody CreateTenantRequest request) {
        Tenancy.NewTenant created = tenancy.createTenant(request.name());
        TenantRecord tenant = created.tenant();
        return ResponseEntity.status(HttpStatus.CREATED)
                .body(new CreatedTenant(tenant.id().toString(), tenant.name(), created.apiKey(), tenant.createdAt()));
    }

    @GetMapping
    @Operation(summary = "List the tenants")
    TenantList list() {
        return new TenantList(tenancy.tenants().stream().map(TenantSummary::of).toList());
    }

    @PostMapping("/{tenantId}/api-keys")
    @Operation(summary = "Issue another API key for a tenant (rotation); shown once")
    ResponseEntity<IssuedKey> issueKey(@PathVariable String tenantId) {
        Tenancy.IssuedKey key = tenancy.issueKey(tenantId);
        return ResponseEntity.status(HttpStatus.CREATED)
                .body(new IssuedKey(key.id().toString(), key.apiKey(), key.createdAt()));
    }

    @DeleteMapping("/{tenantId}/api-keys/{keyId}")
    @Operation(summary = "Revoke an API key at once, on REST and on open WebSocket connections")
    ResponseEntity<Void> revokeKey(@PathVariable String tenantId, @PathVariable String keyId) {
        tenancy.revokeKey(tenantId, keyId);
        return ResponseEntity.noContent().build();
    }
}
