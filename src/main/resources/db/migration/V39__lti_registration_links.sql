-- Dynamic Registration (docs/lti.md): a tenant's single-use link that an LMS administrator gives the LMS, so that
-- the platform it registers is the tenant's. Kept as the token's SHA-256.
CREATE TABLE lti_registration_links (
    token_hash  bytea       PRIMARY KEY,
    tenant_id   uuid        NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    created_at  timestamptz NOT NULL,
    expires_at  timestamptz NOT NULL
);

CREATE INDEX lti_registration_links_by_expiry ON lti_registration_links (expires_at);
