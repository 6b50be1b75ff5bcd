-- How long a tenant keeps its users' data (docs/privacy.md, Retention): null keeps it until it is deleted. The daily
-- retention run erases what is older.
CREATE TABLE retention_settings (
    tenant_id         uuid PRIMARY KEY REFERENCES tenants (id) ON DELETE CASCADE,
    messages_days     integer CHECK (messages_days > 0),
    submissions_days  integer CHECK (submissions_days > 0),
    updated_at        timestamptz NOT NULL
);

CREATE INDEX chats_by_activity ON chats (tenant_id, (COALESCE(last_message_at, created_at)), id);
CREATE INDEX submissions_by_age ON submissions (tenant_id, created_at, id);
