-- The AI review of each submission (docs/api.md, Homework). review_state is 'pending' until the durable review job has
-- stored analysis and grade ('done'), or 'failed' once it gave up (status stays 'submitted'; an operator can
-- retry). review_attempts counts the failed attempts of the current round.
ALTER TABLE submissions
    ADD COLUMN review_state    text    NOT NULL DEFAULT 'pending' CHECK (review_state IN ('pending', 'done', 'failed')),
    ADD COLUMN review_attempts integer NOT NULL DEFAULT 0,
    ADD COLUMN review_error    text,
    ADD COLUMN reviewed_at     timestamptz;

-- The text of each file as the review reads it, extracted once by the first attempt and kept for the questions
-- that follow in the review chat. text_content is null until then; text_not_opened says why a file has no text.
ALTER TABLE submission_files
    ADD COLUMN text_content    text,
    ADD COLUMN text_truncated  boolean,
    ADD COLUMN text_not_opened text;

-- db-scheduler's table (the review module's durable jobs): one row per job, picked by one node at a time
-- (SELECT ... FOR UPDATE SKIP LOCKED), kept alive by heartbeats, revived when its node died.
CREATE TABLE scheduled_tasks (
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

CREATE INDEX scheduled_tasks_execution_time ON scheduled_tasks (execution_time);
CREATE INDEX scheduled_tasks_last_heartbeat ON scheduled_tasks (last_heartbeat);
CREATE INDEX scheduled_tasks_priority_execution_time ON scheduled_tasks (priority DESC, execution_time ASC);

-- Submissions stored before the review existed are reviewed too.
INSERT INTO scheduled_tasks (task_name, task_instance, execution_time, picked, version)
SELECT 'review-submission', id::text, now(), false, 1 FROM submissions;
