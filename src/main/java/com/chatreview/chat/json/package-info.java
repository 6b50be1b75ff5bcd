/** What the chat module writes as JSON, for whoever reads it: the REST bodies of chats and messages, the same shapes in a user's data export and in the chat webhooks' payloads (one shape, three readers). */
@org.jspecify.annotations.NullMarked
package com.chatreview.chat.json;
