-- A user's messages in other users' chats (a teacher writing in a student's chat, and the replies to them), found for
-- the user's erasure (docs/privacy.md): the sender of a user message (metadata.user_id), the user a reply answers
-- (metadata.in_reply_to_user_id).
CREATE INDEX messages_of_user ON messages ((coalesce(metadata ->> 'user_id', metadata ->> 'in_reply_to_user_id')));
