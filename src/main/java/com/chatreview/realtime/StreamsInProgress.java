package com.chatreview.realtime;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The events of each reply being generated ({@code message_stream_started} and its tokens), kept until the reply
 * is stored, so that a client resuming mid-reply gets the part it missed.
 */
class StreamsInProgress {

    private final Map<UUID, List<ChatEvent>> byChat = new ConcurrentHashMap<>();

    void started(UUID chatId, ChatEvent started) {
        List<ChatEvent> events = new ArrayList<>();
        events.add(started);
        byChat.put(chatId, events);
    }

    void token(UUID chatId, ChatEvent token) {
        List<ChatEvent> events = byChat.get(chatId);
        if (events != null) {
            synchronized (events) {
                events.add(token);
            }
        }
    }

    void ended(UUID chatId) {
        byChat.remove(chatId);
    }

    List<ChatEvent> after(UUID chatId, long seq) {
        List<ChatEvent> events = byChat.get(chatId);
        if (events == null) {
            return List.of();
        }
        synchronized (events) {
            return events.stream().filter(event -> event.seq() > seq).toList();
        }
    }
}
