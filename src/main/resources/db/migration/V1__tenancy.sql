-- Tenants and their API keys. A key is shown once and stored only as its SHA-256: keys are 256 random bits,
-- so a fast hash is as safe as a slow one and lets every request find its key by index.
CREATE TABLE tenants (
    id          uuid PRIMARY KEY,
    name        text        NOT NULL,
    created_at  timestamptz NOT NULL
);

CREATE TABLE api_keys (
    id          uuid PRIMARY KEY,
    tenant_id   uuid        NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    key_hash    bytea       NOT NULL UNIQUE,
    key_prefix  text        NOT NULL,
    created_at  timestamptz NOT NULL,
    revoked_at  timestamptz
);

CREATE INDEX api_keys_tenant ON api_keys (tenant_id);
