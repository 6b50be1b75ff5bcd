-- Grade passback (docs/lti.md, Grades): where a learner's scores of a homework go, and the scores to send.

-- A learner's launch of a homework from a resource link with a gradebook column (the AGS claim's lineitem): their
-- submissions' scores go to that line item, as long as the platform is registered. Personal data (user_id, sub).
CREATE TABLE lti_grade_targets (
    platform_id   uuid        NOT NULL REFERENCES lti_platforms (id) ON DELETE CASCADE,
    user_id       text        NOT NULL,
    homework_id   uuid        NOT NULL,
    line_item_url text        NOT NULL,
    tenant_id     uuid        NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    sub           text        NOT NULL,
    launched_at   timestamptz NOT NULL,
    PRIMARY KEY (platform_id, user_id, homework_id, line_item_url)
);

CREATE INDEX lti_grade_targets_of_user ON lti_grade_targets (tenant_id, user_id);

-- The outbox: one row per (submission, state, line item), written in the transaction that changed the submission,
-- sent in order per (line item, user), retried until the platform takes it.
CREATE TABLE lti_scores (
    seq             bigserial   PRIMARY KEY,
    submission_id   uuid        NOT NULL,
    state           text        NOT NULL,
    line_item_url   text        NOT NULL,
    platform_id     uuid        NOT NULL REFERENCES lti_platforms (id) ON DELETE CASCADE,
    tenant_id       uuid        NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    user_id         text        NOT NULL,
    score           jsonb       NOT NULL,
    created_at      timestamptz NOT NULL,
    attempts        integer     NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL,
    delivered_at    timestamptz,
    given_up_at     timestamptz,
    last_error      text,
    UNIQUE (submission_id, state, line_item_url)
);

CREATE INDEX lti_scores_due ON lti_scores (next_attempt_at) WHERE delivered_at IS NULL AND given_up_at IS NULL;
CREATE INDEX lti_scores_in_line ON lti_scores (line_item_url, user_id, seq) WHERE delivered_at IS NULL AND given_up_at IS NULL;
CREATE INDEX lti_scores_of_user ON lti_scores (tenant_id, user_id);
