package com.chatreview.chat;

import com.chatreview.kernel.Page;
import java.time.Instant;

/**
 * A page of a chat's messages, with when the chat last changed: a page's entity tag names both, since a message is
 * added (the count changes) or, by an erasure, emptied where it stands (the chat's {@code updated_at} changes).
 */
public record MessagePage(Page<ChatMessage> page, Instant chatUpdatedAt) {}
