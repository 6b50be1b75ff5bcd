-- A user's data, found by the user (docs/privacy.md): the export and the erasure read a student's submissions to
-- every homework, and the AI usage of a user's replies, without scanning the tenant's.
CREATE INDEX submissions_of_student ON submissions (tenant_id, student_id, created_at, id);
CREATE INDEX ai_usage_of_user ON ai_usage (tenant_id, user_id, occurred_at, message_id);
