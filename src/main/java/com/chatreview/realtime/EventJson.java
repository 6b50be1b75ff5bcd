package com.chatreview.realtime;

import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/** Events as their JSON, with the application's JSON mapper (timestamps as the interface writes them). */
@Component
final class EventJson {

    private final JsonMapper json;

    EventJson(JsonMapper json) {
        this.json = json;
    }

    String write(ServerEvent event) {
        return json.writeValueAsString(event);
    }

    /** An event of the chat's sequence, rendered for all its connections. */
    ChatEvent sequenced(ServerEvent event) {
        if (event.seq() == null) {
            throw new IllegalArgumentException("An event of a chat's sequence needs its seq: " + event);
        }
        return new ChatEvent(event.seq(), write(event));
    }
}
