package com.chatreview.realtime;

import java.util.UUID;

/** The connections of this node on the chat get the event, each in the order the chat's events come. */
class InProcessChatEventFanOut implements ChatEventFanOut {

    private final ConnectionRegistry connections;

    InProcessChatEventFanOut(ConnectionRegistry connections) {
        this.connections = connections;
    }

    @Override
    public void publish(UUID chatId, ChatEvent event) {
        for (Connection connection : connections.onChat(chatId)) {
            connection.deliver(event);
        }
    }

    /** Every event goes to the chat's connections as it is published; what came before is the sequence's to say. */
    @Override
    public long watch(UUID chatId) {
        return 0;
    }
}
