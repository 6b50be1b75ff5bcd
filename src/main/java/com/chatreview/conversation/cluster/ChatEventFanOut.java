package com.chatreview.conversation.cluster;

import com.chatreview.chat.ChatId;
import com.chatreview.conversation.ChatEvent;

/**
 * Delivers a chat's events to every connection open on the chat. In-process, that is this node's connections;
 * a cluster's fan-out carries each event to every node holding a connection on the chat.
 */
public interface ChatEventFanOut {

    /** Sends the event, in the order publish is called for the chat, to every connection on the chat. */
    void publish(ChatId chatId, ChatEvent event);

    /**
     * Whether {@link #publish} returns without waiting for anything: it hands the event to this node's connections
     * only, whose sends never wait. A cluster's fan-out writes to Redis first and waits for it.
     */
    boolean publishesWithoutWaiting();

    /**
     * Where a connection just registered on the chat starts: it receives every event of the chat after the seq
     * returned, and none before it.
     *
     * @return the seq of the latest event of the chat this node has handed to its connections; 0 when the fan-out
     *     keeps none (the caller knows better then)
     */
    long watch(ChatId chatId);
}
