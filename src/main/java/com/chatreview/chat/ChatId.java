package com.chatreview.chat;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Objects;
import java.util.UUID;

/**
 * A chat's id. Every method of a module that names a chat takes one, so that a call that passes a message's,
 * a submission's or a tenant's id where the chat's belongs, or mixes up two ids, does not compile. Written as
 * JSON, it is the UUID text alone, as a raw UUID was.
 */
public record ChatId(@JsonValue UUID value) {

    public ChatId {
        Objects.requireNonNull(value, "a chat id");
    }

    public static ChatId of(UUID value) {
        return new ChatId(value);
    }

    /** A new random id, for a chat being created. */
    public static ChatId random() {
        return new ChatId(UUID.randomUUID());
    }

    /** The id as the API writes it. */
    @Override
    public String toString() {
        return value.toString();
    }
}
