-- The chat page (docs/chat-ui.md). A tenant's page settings: a row only once the tenant set something; no row means
-- the defaults (bare link works, any site may frame the page, any origin may open its WebSocket). A NULL list
-- means "anywhere", an empty list "nowhere but the page itself".
CREATE TABLE chat_ui_settings (
    tenant_id            uuid PRIMARY KEY REFERENCES tenants (id) ON DELETE CASCADE,
    require_embed_token  boolean     NOT NULL,
    frame_ancestors      text[],
    allowed_origins      text[],
    updated_at           timestamptz NOT NULL
);

-- The key that signs embed tokens (HMAC-SHA256): one row, made by whichever node needs it first, read by all,
-- so that a token minted on one node is accepted by every other.
CREATE TABLE chat_ui_signing_keys (
    id          smallint PRIMARY KEY CHECK (id = 1),
    secret      bytea       NOT NULL,
    created_at  timestamptz NOT NULL
);
