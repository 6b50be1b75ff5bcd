-- Webhook deliveries (docs/api.md, Webhooks): one row per event and endpoint, written in the transaction of the change
-- that caused the event (an outbox), sent by whichever node claims it (FOR UPDATE SKIP LOCKED), retried with
-- back-off. Deliveries of one endpoint with the same ordering key (a chat, a submission) go out in seq order.
CREATE TABLE webhook_deliveries (
    id               uuid PRIMARY KEY,
    seq              bigserial   NOT NULL UNIQUE,
    tenant_id        uuid        NOT NULL,
    endpoint_id      uuid        NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    event_id         uuid        NOT NULL,
    event_type       text        NOT NULL,
    ordering_key     text        NOT NULL,
    payload          text        NOT NULL,
    status           text        NOT NULL,
    attempts         integer     NOT NULL DEFAULT 0,
    next_attempt_at  timestamptz NOT NULL,
    locked_until     timestamptz,
    last_status_code integer,
    last_error       text,
    last_latency_ms  integer,
    created_at       timestamptz NOT NULL,
    delivered_at     timestamptz
);

CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_of_endpoint ON webhook_deliveries (endpoint_id, seq);
CREATE INDEX webhook_deliveries_in_order ON webhook_deliveries (endpoint_id, ordering_key, seq)
    WHERE status = 'pending';
