-- Homework tests (docs/decisions.md, Homework tests): a homework's files may be the teacher's tests, run against every
-- submission in a sandbox before its review; how long a run may take is the homework's; what it came to is the
-- submission's (NULL when the homework has no tests, or before they ran).
ALTER TABLE homework_files DROP CONSTRAINT homework_files_file_type_check;
ALTER TABLE homework_files ADD CONSTRAINT homework_files_file_type_check
    CHECK (file_type IN ('task', 'solution', 'restriction', 'test'));

ALTER TABLE homeworks ADD COLUMN test_timeout_seconds integer NOT NULL DEFAULT 10
    CHECK (test_timeout_seconds BETWEEN 1 AND 60);

ALTER TABLE submissions ADD COLUMN tests jsonb;
