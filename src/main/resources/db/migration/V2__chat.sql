-- Users appear on first sight (a chat created for them, a WebSocket connection made by them).
CREATE TABLE users (
    tenant_id   uuid        NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    user_id     text        NOT NULL,
    created_at  timestamptz NOT NULL,
    PRIMARY KEY (tenant_id, user_id)
);

CREATE TABLE chats (
    id               uuid PRIMARY KEY,
    tenant_id        uuid        NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    user_id          text        NOT NULL,
    title            text        NOT NULL,
    title_given      boolean     NOT NULL,
    config           jsonb       NOT NULL,
    status           text        NOT NULL CHECK (status IN ('active', 'closed')),
    created_at       timestamptz NOT NULL,
    updated_at       timestamptz NOT NULL,
    last_message_at  timestamptz,
    message_count    integer     NOT NULL DEFAULT 0,
    FOREIGN KEY (tenant_id, user_id) REFERENCES users (tenant_id, user_id)
);

CREATE INDEX chats_by_user ON chats (tenant_id, user_id, created_at, id);

-- position is dense per chat (1, 2, 3...): messages are only ever deleted with their chat, so a page at any
-- offset is an index range, as fast at offset 100,000 as at offset 0.
CREATE TABLE messages (
    chat_id            uuid        NOT NULL REFERENCES chats (id) ON DELETE CASCADE,
    position           integer     NOT NULL,
    id                 uuid        NOT NULL UNIQUE,
    sender_role        text        NOT NULL CHECK (sender_role IN ('user', 'assistant')),
    content            text        NOT NULL,
    media_type         text,
    media_url          text,
    metadata           jsonb       NOT NULL,
    client_message_id  text,
    created_at         timestamptz NOT NULL,
    PRIMARY KEY (chat_id, position)
);

CREATE UNIQUE INDEX messages_client_id ON messages (chat_id, client_message_id) WHERE client_message_id IS NOT NULL;
