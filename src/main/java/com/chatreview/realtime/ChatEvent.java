package com.chatreview.realtime;

/**
 * An event of a chat's sequence, rendered once as the JSON every connection on the chat gets, whichever node
 * holds it.
 */
record ChatEvent(long seq, String json) {}
