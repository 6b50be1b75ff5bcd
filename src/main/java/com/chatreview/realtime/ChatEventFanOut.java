package com.chatreview.realtime;

import java.util.UUID;

/**
 * Delivers a chat's events to every connection open on the chat. In-process, that is this node's connections;
 * a cluster's fan-out also carries the event to the nodes holding the chat's other connections.
 */
interface ChatEventFanOut {

    /** Sends the event, in the order publish is called for the chat, to every connection on the chat. */
    void publish(UUID chatId, ChatEvent event);
}
