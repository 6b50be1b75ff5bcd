-- The LMS platforms a tenant registers (docs/lti.md). A launch names only the issuer and the client id, so the pair
-- leads to one registration across all tenants.
CREATE TABLE lti_platforms (
    id              uuid        PRIMARY KEY,
    tenant_id       uuid        NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    issuer          text        NOT NULL,
    client_id       text        NOT NULL,
    deployment_ids  text[]      NOT NULL,
    auth_login_url  text        NOT NULL,
    auth_token_url  text        NOT NULL,
    jwks_url        text        NOT NULL,
    created_at      timestamptz NOT NULL,
    UNIQUE (issuer, client_id)
);

CREATE INDEX lti_platforms_of_tenant ON lti_platforms (tenant_id, created_at, id);

-- The tool's RS256 keys: the newest unretired one signs; a retired one stays published until its overlap ends.
-- The private key is sealed with the operator's key.
CREATE TABLE lti_tool_keys (
    kid                 text        PRIMARY KEY,
    private_key_sealed  bytea       NOT NULL,
    created_at          timestamptz NOT NULL,
    retired_at          timestamptz
);
