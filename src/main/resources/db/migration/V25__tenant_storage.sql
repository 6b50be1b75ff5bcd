-- What each tenant's uploaded files take, kept with every upload in its transaction, so that an upload past the
-- tenant's allowance (LIMIT_STORAGE_BYTES_PER_TENANT) is refused before anything of it is stored, however many
-- uploads run at once on however many nodes: the row's update decides.
CREATE TABLE tenant_storage (
    tenant_id   uuid   PRIMARY KEY REFERENCES tenants (id) ON DELETE CASCADE,
    used_bytes  bigint NOT NULL CHECK (used_bytes >= 0)
);

INSERT INTO tenant_storage (tenant_id, used_bytes)
SELECT s.tenant_id, SUM(f.size_bytes)
FROM submission_files f JOIN submissions s ON s.id = f.submission_id
GROUP BY s.tenant_id;
