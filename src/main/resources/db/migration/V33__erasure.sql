-- A user's erasure (docs/privacy.md): what it erased, counted in the transaction that erased each part, and a hash of
-- the user id, never the id itself. One erasure of a user runs at a time.
CREATE TABLE erasures (
    id            uuid PRIMARY KEY,
    tenant_id     uuid        NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    user_id_hash  text        NOT NULL,
    status        text        NOT NULL CHECK (status IN ('running', 'done')),
    started_at    timestamptz NOT NULL,
    finished_at   timestamptz,
    chats         integer     NOT NULL DEFAULT 0,
    messages      integer     NOT NULL DEFAULT 0,
    submissions   integer     NOT NULL DEFAULT 0,
    files         integer     NOT NULL DEFAULT 0
);

CREATE UNIQUE INDEX erasures_one_running_per_user ON erasures (tenant_id, user_id_hash) WHERE status = 'running';

-- db-scheduler's table of the privacy module's durable jobs (an erasure; the daily retention run), apart from the
-- reviews' scheduled_tasks: its own scheduler polls it, and neither scheduler meets the other's tasks. task_data holds
-- the user id of an erasure under way, and goes with the row when the erasure ends.
CREATE TABLE privacy_tasks (
    task_name            text        NOT NULL,
    task_instance        text        NOT NULL,
    task_data            bytea,
    execution_time       timestamptz NOT NULL,
    picked               boolean     NOT NULL,
    picked_by            text,
    last_success         timestamptz,
    last_failure         timestamptz,
    consecutive_failures integer,
    last_heartbeat       timestamptz,
    version              bigint      NOT NULL,
    priority             smallint,
    PRIMARY KEY (task_name, task_instance)
);

CREATE INDEX privacy_tasks_execution_time ON privacy_tasks (execution_time);
CREATE INDEX privacy_tasks_last_heartbeat ON privacy_tasks (last_heartbeat);

-- An erasure replaces the payloads of the deliveries about a user's chats and submissions (their ordering key).
CREATE INDEX webhook_deliveries_by_ordering_key ON webhook_deliveries (tenant_id, ordering_key);
