package com.chatreview.conversation.cluster;

import com.chatreview.chat.ChatId;
import com.chatreview.conversation.ChatEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** The replies in progress of this node's chats, in its memory: a single node's, and a cluster node's fallback. */
final class InProcessStreamsInProgress implements StreamsInProgress {

    private final Map<ChatId, List<ChatEvent>> byChat = new ConcurrentHashMap<>();

    @Override
    public void started(ChatId chatId, ChatEvent started) {
        List<ChatEvent> events = new ArrayList<>();
        events.add(started);
        byChat.put(chatId, events);
    }

    @Override
    public void token(ChatId chatId, ChatEvent token) {
        List<ChatEvent> events = byChat.get(chatId);
        if (events != null) {
            synchronized (events) {
                events.add(token);
            }
        }
    }

    @Override
    public void ended(ChatId chatId) {
        byChat.remove(chatId);
    }

    @Override
    public List<ChatEvent> of(ChatId chatId) {
        List<ChatEvent> events = byChat.get(chatId);
        if (events == null) {
            return List.of();
        }
        synchronized (events) {
            return List.copyOf(events);
        }
    }
}
