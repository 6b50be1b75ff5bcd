-- Whether a user has written in the chat: the write that stores a chat's first user message gives the chat its
-- title (unless one was given) without looking through the chat's messages. Messages are only ever deleted with
-- their chat, so the flag, once set, stays true.
ALTER TABLE chats ADD COLUMN has_user_message boolean NOT NULL DEFAULT false;

UPDATE chats c SET has_user_message = true
WHERE EXISTS (SELECT 1 FROM messages m WHERE m.chat_id = c.id AND m.sender_role = 'user');
