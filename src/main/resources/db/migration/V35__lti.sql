-- The LMS platforms a tenant registers (docs/lti.md).
CREATE TABLE lti_platforms (
    id              uuid        PRIMARY KEY,
    tenant_id       uuid        NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    issuer          text        NOT NULL,
    client_id       text        NOT NULL,
    auth_login_url  text        NOT NULL,
    auth_token_url  text        NOT NULL,
    jwks_url        text        NOT NULL,
    created_at      timestamptz NOT NULL
);

CREATE INDEX lti_platforms_of_tenant ON lti_platforms (tenant_id, created_at, id);
CREATE INDEX lti_platforms_by_client ON lti_platforms (issuer, client_id);

-- A platform's deployments. A launch names its issuer, client id and deployment, so the three lead to one
-- registration across all tenants; an issuer and client id alone may have several (Blackboard gives every school
-- the same client id, and a deployment of its own).
CREATE TABLE lti_deployments (
    issuer         text    NOT NULL,
    client_id      text    NOT NULL,
    deployment_id  text    NOT NULL,
    platform_id    uuid    NOT NULL REFERENCES lti_platforms (id) ON DELETE CASCADE,
    position       integer NOT NULL,
    PRIMARY KEY (issuer, client_id, deployment_id)
);

CREATE INDEX lti_deployments_of_platform ON lti_deployments (platform_id, position);

-- The tool's RS256 keys, the private part sealed with the operator's key. A key is published from the moment it is
-- made and signs a while later (platforms that cached the JWKS see it first); it stays published a while after its
-- successor took over. When each does is worked out from created_at alone (docs/lti.md, The tool's keys).
CREATE TABLE lti_tool_keys (
    kid                 text        PRIMARY KEY,
    private_key_sealed  bytea       NOT NULL,
    created_at          timestamptz NOT NULL
);
