-- Safety screening (docs/safety.md): a flag for each student message the screening flagged, for the school to read.
-- It holds the categories, never the text (the message is in messages, and goes with its chat).
CREATE TABLE moderation_flags (
    id          uuid        PRIMARY KEY,
    tenant_id   uuid        NOT NULL,
    chat_id     uuid        NOT NULL REFERENCES chats (id) ON DELETE CASCADE,
    user_id     text        NOT NULL,
    message_id  uuid        NOT NULL UNIQUE,
    categories  text[]      NOT NULL,
    severity    text        NOT NULL,
    screened_by text        NOT NULL,
    created_at  timestamptz NOT NULL
);
CREATE INDEX moderation_flags_newest ON moderation_flags (tenant_id, created_at DESC, id DESC);
CREATE INDEX moderation_flags_of_user ON moderation_flags (tenant_id, user_id);
CREATE INDEX moderation_flags_of_chat ON moderation_flags (chat_id);

-- The tenant's choices: which categories are sent to its webhook, and the help text of the caring reply.
CREATE TABLE moderation_settings (
    tenant_id        uuid        PRIMARY KEY,
    alert_categories text[]      NOT NULL,
    help_text        text,
    updated_at       timestamptz NOT NULL
);
