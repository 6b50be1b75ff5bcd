-- What a review found beside its grade and analysis (docs/api.md, The review), in the shape the submission's JSON has:
-- points per criterion of the homework's rubric, findings on the student's lines, flags for the teacher.
-- Empty until the review is stored, and emptied again when a failed review is reopened.
ALTER TABLE submissions
    ADD COLUMN criteria jsonb NOT NULL DEFAULT '[]',
    ADD COLUMN findings jsonb NOT NULL DEFAULT '[]',
    ADD COLUMN flags    jsonb NOT NULL DEFAULT '[]';
