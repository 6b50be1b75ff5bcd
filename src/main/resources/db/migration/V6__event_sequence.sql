-- Every event of a chat on a WebSocket carries seq, strictly increasing over the chat's events (docs/decisions.md).
-- A node reserves seq numbers in blocks (event_seq_reserved), so that numbers keep increasing across restarts
-- without a database write per streamed token; a stored message keeps the seq of its final event, which is what
-- a client resuming after that seq is sent again.
ALTER TABLE chats ADD COLUMN event_seq_reserved bigint NOT NULL DEFAULT 0;
ALTER TABLE messages ADD COLUMN event_seq bigint;
CREATE INDEX messages_by_event_seq ON messages (chat_id, event_seq) WHERE event_seq IS NOT NULL;
