-- Regrade requests (docs/api.md, Regrade requests): a student asks the teacher to look again at a criterion (or the
-- whole grade); the teacher answers, and the answer goes into the student's review chat (chat_message_id once it is
-- there, so that a job run again after a crash does not post it twice). Erased with the submission.
CREATE TABLE regrade_requests (
    id               uuid PRIMARY KEY,
    submission_id    uuid        NOT NULL REFERENCES submissions (id) ON DELETE CASCADE,
    criterion_id     text,
    message          text        NOT NULL,
    state            text        NOT NULL CHECK (state IN ('open', 'answered')),
    answer           text,
    answered_by      text,
    created_at       timestamptz NOT NULL,
    answered_at      timestamptz,
    chat_message_id  uuid
);

CREATE INDEX regrade_requests_by_submission ON regrade_requests (submission_id, created_at);
