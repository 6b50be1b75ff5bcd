-- The teacher's rubric of an assignment (docs/api.md, The review): {"criteria": [{"id", "title", "description", "maxPoints"}]}.
-- NULL: the teacher gave none; the service's default rubric applies (grading's Rubric.DEFAULT, docs/review-rubric.md).
ALTER TABLE homeworks ADD COLUMN rubric jsonb;
