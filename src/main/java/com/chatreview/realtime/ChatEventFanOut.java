package com.chatreview.realtime;

import java.util.UUID;

/**
 * Delivers a chat's events to every connection open on the chat. In-process, that is this node's connections;
 * a cluster's fan-out carries each event to every node holding a connection on the chat.
 */
interface ChatEventFanOut {

    /** Sends the event, in the order publish is called for the chat, to every connection on the chat. */
    void publish(UUID chatId, ChatEvent event);

    /**
     * Makes sure this node's connections on the chat receive its events from now on (a connection has just been
     * registered on it).
     *
     * @return the seq of the latest event published to the chat, on any node, as far as the fan-out keeps them; 0
     *     when it keeps none
     */
    long watch(UUID chatId);
}
