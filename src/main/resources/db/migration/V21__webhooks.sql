-- Webhooks (docs/api.md, Webhooks): the endpoints a tenant registers. The signing secret is sealed (AES-GCM) with the
-- operator's key (WEBHOOK_SECRET_KEY), never stored in the clear; during a rotation the previous one signs too,
-- until previous_secret_until.
CREATE TABLE webhook_endpoints (
    id                     uuid PRIMARY KEY,
    tenant_id              uuid        NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    url                    text        NOT NULL,
    event_types            text[]      NOT NULL,
    description            text,
    enabled                boolean     NOT NULL,
    disabled_reason        text,
    secret_sealed          bytea       NOT NULL,
    previous_secret_sealed bytea,
    previous_secret_until  timestamptz,
    created_at             timestamptz NOT NULL,
    updated_at             timestamptz NOT NULL
);

CREATE INDEX webhook_endpoints_by_tenant ON webhook_endpoints (tenant_id, created_at);
