-- A tenant's own storage allowance, set by the operator (PUT /admin/v1/tenants/{tenantId}/storage); NULL: the
-- service's default, LIMIT_STORAGE_BYTES_PER_TENANT.
ALTER TABLE tenant_storage ADD COLUMN allowance_bytes bigint CHECK (allowance_bytes IS NULL OR allowance_bytes >= 0);
