-- The names the LMS gives its users at launch (docs/lti.md, The teacher's class view): a teacher's page of a homework
-- shows whose submissions they are. Kept fresh by each launch; erased with the user.
CREATE TABLE lti_people (
    tenant_id  uuid        NOT NULL,
    user_id    text        NOT NULL,
    name       text        NOT NULL,
    seen_at    timestamptz NOT NULL,
    PRIMARY KEY (tenant_id, user_id)
);
