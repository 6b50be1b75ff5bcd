package com.chatreview.conversation;

import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/** Events as their JSON, with the application's JSON mapper (timestamps as the interface writes them). */
@Component
public final class EventJson {

    private final JsonMapper json;

    public EventJson(JsonMapper json) {
        this.json = json;
    }

    public String write(ServerEvent event) {
        return json.writeValueAsString(event);
    }

    /** An event of the chat's sequence, rendered for all its connections. */
    public ChatEvent sequenced(ServerEvent event) {
        if (event.seq() == null) {
            throw new IllegalArgumentException("An event of a chat's sequence needs its seq: " + event);
        }
        return new ChatEvent(event.seq(), write(event));
    }
}
