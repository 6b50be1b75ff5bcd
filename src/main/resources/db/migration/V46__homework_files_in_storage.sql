-- A homework's files count against the tenant's storage as its submissions' uploads do (docs/limits.md, Storage):
-- what the homework published before took is added once.
INSERT INTO tenant_storage (tenant_id, used_bytes)
SELECT h.tenant_id, 0 FROM homeworks h GROUP BY h.tenant_id
ON CONFLICT (tenant_id) DO NOTHING;

UPDATE tenant_storage s SET used_bytes = s.used_bytes + f.bytes
FROM (SELECT h.tenant_id, SUM(octet_length(hf.content)) AS bytes
      FROM homework_files hf JOIN homeworks h ON h.id = hf.homework_id
      GROUP BY h.tenant_id) f
WHERE f.tenant_id = s.tenant_id;
