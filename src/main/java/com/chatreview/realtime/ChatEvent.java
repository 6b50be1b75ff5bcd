package com.chatreview.realtime;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Map;
import tools.jackson.databind.json.JsonMapper;

/** An event of a chat, with its place in the chat's sequence, already rendered as the JSON a client gets. */
record ChatEvent(long seq, String json) {

    /** The one JSON mapper of the WebSocket side: events out, frames and stored metadata in. */
    static final JsonMapper JSON = JsonMapper.builder().build();

    private static final DateTimeFormatter TIMESTAMP =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    /** Starts an event of the interface: {@code event_type} and {@code timestamp}, then the caller's fields. */
    static Map<String, Object> of(String eventType) {
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("event_type", eventType);
        event.put("timestamp", TIMESTAMP.format(Instant.now()));
        return event;
    }

    static ChatEvent sequenced(long seq, Map<String, Object> event) {
        event.put("seq", seq);
        return new ChatEvent(seq, toJson(event));
    }

    static String toJson(Map<String, Object> event) {
        return JSON.writeValueAsString(event);
    }

    static String timestamp(Instant instant) {
        return TIMESTAMP.format(instant);
    }
}
