package com.chatreview.conversation;

import com.chatreview.chat.ChatId;
import java.util.List;

/**
 * Who listens to a chat on this node: the connections open on it. The fan-out hands each of them every event of
 * the chat, in {@code seq} order. Implemented by the module that holds the connections.
 */
public interface ChatListeners {

    /** This node's listeners on the chat. */
    List<? extends Listener> onChat(ChatId chatId);

    /** One listener: takes the chat's events in order, however fast it reads them (it buffers or leaves). */
    interface Listener {

        void deliver(ChatEvent event);
    }
}
