-- The first response to each Idempotency-Key, replayed for 24 hours (docs/decisions.md).
CREATE TABLE idempotency_records (
    tenant_id        uuid        NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    idempotency_key  text        NOT NULL,
    operation        text        NOT NULL,
    fingerprint      bytea       NOT NULL,
    response_status  integer     NOT NULL,
    response_body    text        NOT NULL,
    created_at       timestamptz NOT NULL,
    PRIMARY KEY (tenant_id, idempotency_key)
);

CREATE INDEX idempotency_records_age ON idempotency_records (created_at);
