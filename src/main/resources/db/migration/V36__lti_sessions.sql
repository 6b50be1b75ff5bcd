-- A launch's session (docs/lti.md, Sessions): what the tool's pages in the LMS need between requests, found by the
-- hash of a token that travels in the pages' forms and links (no cookie: the LMS's iframe blocks them). Personal
-- data (who launched): erased with the user, and gone when it expires.
CREATE TABLE lti_sessions (
    token_hash   bytea       PRIMARY KEY,
    tenant_id    uuid        NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    platform_id  uuid        NOT NULL REFERENCES lti_platforms (id) ON DELETE CASCADE,
    user_id      text        NOT NULL,
    launch       jsonb       NOT NULL,
    created_at   timestamptz NOT NULL,
    expires_at   timestamptz NOT NULL
);

CREATE INDEX lti_sessions_of_user ON lti_sessions (tenant_id, user_id);
CREATE INDEX lti_sessions_by_expiry ON lti_sessions (expires_at);
