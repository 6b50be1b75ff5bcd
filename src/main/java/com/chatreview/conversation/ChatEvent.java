package com.chatreview.conversation;

/**
 * An event of a chat's sequence, rendered once as the JSON every connection on the chat gets, whichever node
 * holds it.
 */
public record ChatEvent(long seq, String json) {}
