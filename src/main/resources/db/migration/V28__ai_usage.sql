-- What each assistant reply and review cost (docs/api.md, Usage and budgets), one row per stored reply, written in the transaction
-- that stores it, so that the sums are exact however many nodes answer. No reference to the chat: what was spent
-- stays counted when a chat is deleted (a budget cannot be reset by deleting chats).
CREATE TABLE ai_usage (
    message_id         uuid PRIMARY KEY,
    tenant_id          uuid        NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    chat_id            uuid        NOT NULL,
    user_id            text        NOT NULL,
    kind               text        NOT NULL CHECK (kind IN ('chat', 'review')),
    prompt_tokens      integer     NOT NULL CHECK (prompt_tokens >= 0),
    completion_tokens  integer     NOT NULL CHECK (completion_tokens >= 0),
    total_tokens       integer     NOT NULL CHECK (total_tokens >= 0),
    estimated          boolean     NOT NULL,
    occurred_at        timestamptz NOT NULL
);

CREATE INDEX ai_usage_by_tenant_and_time ON ai_usage (tenant_id, occurred_at);

-- The replies stored before: counted from their metadata (a reply without counts is estimated from its length), a
-- review being the answer to the service's own review request.
INSERT INTO ai_usage (message_id, tenant_id, chat_id, user_id, kind, prompt_tokens, completion_tokens, total_tokens,
                      estimated, occurred_at)
SELECT m.id, c.tenant_id, m.chat_id,
       COALESCE(m.metadata ->> 'in_reply_to_user_id', c.user_id),
       CASE WHEN EXISTS (SELECT 1 FROM messages q
                         WHERE q.id::text = m.metadata ->> 'in_reply_to'
                           AND q.metadata ->> 'kind' = 'review_request') THEN 'review' ELSE 'chat' END,
       COALESCE((m.metadata -> 'usage' ->> 'prompt_tokens')::integer, 0),
       COALESCE((m.metadata -> 'usage' ->> 'completion_tokens')::integer, (length(m.content) + 3) / 4),
       COALESCE((m.metadata -> 'usage' ->> 'total_tokens')::integer, (length(m.content) + 3) / 4),
       (m.metadata -> 'usage' ->> 'completion_tokens') IS NULL,
       m.created_at
FROM messages m JOIN chats c ON c.id = m.chat_id
WHERE m.sender_role = 'assistant';
