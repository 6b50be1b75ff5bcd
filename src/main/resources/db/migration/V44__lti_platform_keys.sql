-- Each registration signs with keys of its own (docs/lti.md, The tool's keys): a client assertion signed for one
-- tenant's registration is never valid at another school's LMS. The keys of a registration are published at
-- /lti/platforms/{id}/jwks; the rows with no platform are the keys the whole service shared before, which sign
-- nothing any more and stay published at /lti/jwks until the operator retires it (lti.shared-jwks).
ALTER TABLE lti_tool_keys ADD COLUMN platform_id uuid REFERENCES lti_platforms (id) ON DELETE CASCADE;

CREATE INDEX lti_tool_keys_of_platform ON lti_tool_keys (platform_id, created_at, kid);

-- A registration made before, whose LMS was given /lti/jwks: its own keys are published there too, and it signs
-- with the shared key until its own key is old enough for LMSes that cached the JWKS to know it. Only the first
-- tenant to hold a client id and token endpoint keeps that trust: a later tenant's registration of the same client
-- (another school's, or a squatter's) never has its keys published where the first one's LMS looks.
ALTER TABLE lti_platforms ADD COLUMN shared_jwks boolean NOT NULL DEFAULT false;

UPDATE lti_platforms p SET shared_jwks = true
WHERE NOT EXISTS (SELECT 1 FROM lti_platforms q
                  WHERE q.client_id = p.client_id AND q.auth_token_url = p.auth_token_url
                    AND q.tenant_id <> p.tenant_id AND (q.created_at, q.id) < (p.created_at, p.id));

CREATE INDEX lti_platforms_by_client_and_token ON lti_platforms (client_id, auth_token_url);
