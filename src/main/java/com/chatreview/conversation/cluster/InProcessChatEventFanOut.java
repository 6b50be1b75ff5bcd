package com.chatreview.conversation.cluster;

import com.chatreview.chat.ChatId;
import com.chatreview.conversation.ChatEvent;
import com.chatreview.conversation.ChatListeners;

/** The connections of this node on the chat get the event, each in the order the chat's events come. */
class InProcessChatEventFanOut implements ChatEventFanOut {

    private final ChatListeners listeners;

    InProcessChatEventFanOut(ChatListeners listeners) {
        this.listeners = listeners;
    }

    @Override
    public void publish(ChatId chatId, ChatEvent event) {
        for (ChatListeners.Listener listener : listeners.onChat(chatId)) {
            listener.deliver(event);
        }
    }

    @Override
    public boolean publishesWithoutWaiting() {
        return true;
    }

    /** Every event goes to the chat's connections as it is published; what came before is the sequence's to say. */
    @Override
    public long watch(ChatId chatId) {
        return 0;
    }
}
