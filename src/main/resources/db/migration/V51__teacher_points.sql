-- The teacher's grade (docs/api.md, The teacher's grade): the points a teacher gave per criterion, with their comments,
-- kept beside the review's (submissions.criteria, never changed by a decision), and the teacher's comment on the whole;
-- each decision keeps what it changed.
ALTER TABLE submissions ADD COLUMN teacher_points jsonb NOT NULL DEFAULT '[]';
ALTER TABLE submissions ADD COLUMN teacher_comment text;

ALTER TABLE submission_decisions ADD COLUMN changed_points jsonb NOT NULL DEFAULT '[]';
ALTER TABLE submission_decisions ADD COLUMN comment text;
