-- A review chat's submission, found by the chat (each submission has a chat of its own): every question in a review
-- chat looks it up, rather than reading the chat's settings.
CREATE UNIQUE INDEX submissions_by_chat ON submissions (chat_id);
