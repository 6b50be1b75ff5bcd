CREATE TABLE submissions (
    id           uuid PRIMARY KEY,
    tenant_id    uuid        NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    homework_id  uuid        NOT NULL REFERENCES homeworks (id) ON DELETE CASCADE,
    student_id   text        NOT NULL,
    chat_id      uuid        NOT NULL,
    status       text        NOT NULL CHECK (status IN ('submitted', 'reviewed', 'approved', 'needs_revision')),
    analysis     text        NOT NULL DEFAULT '',
    grade        text        NOT NULL DEFAULT '' CHECK (grade IN ('', 'A', 'B', 'C', 'D', 'E', 'F')),
    created_at   timestamptz NOT NULL,
    updated_at   timestamptz NOT NULL
);

CREATE INDEX submissions_by_homework ON submissions (homework_id, created_at DESC, id DESC);
CREATE INDEX submissions_by_student ON submissions (homework_id, student_id, created_at DESC, id DESC);

-- Uploaded files live in the database, not on a node's disk: every node behind the load balancer can read
-- them, and the file and its submission commit together or not at all.
CREATE TABLE submission_files (
    id             uuid PRIMARY KEY,
    submission_id  uuid        NOT NULL REFERENCES submissions (id) ON DELETE CASCADE,
    position       integer     NOT NULL,
    file_name      text        NOT NULL,
    content_type   text        NOT NULL,
    size_bytes     bigint      NOT NULL,
    sha256         bytea       NOT NULL,
    content        bytea       NOT NULL,
    created_at     timestamptz NOT NULL,
    UNIQUE (submission_id, position)
);

-- The teacher's decisions, oldest first: who decided, when, from which status to which.
CREATE TABLE submission_decisions (
    id             uuid PRIMARY KEY,
    submission_id  uuid        NOT NULL REFERENCES submissions (id) ON DELETE CASCADE,
    from_status    text        NOT NULL,
    to_status      text        NOT NULL,
    decided_by     text,
    api_key_id     uuid,
    decided_at     timestamptz NOT NULL
);

CREATE INDEX submission_decisions_by_submission ON submission_decisions (submission_id, decided_at);
