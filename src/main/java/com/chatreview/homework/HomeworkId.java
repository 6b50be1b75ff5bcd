package com.chatreview.homework;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Objects;
import java.util.UUID;

/**
 * A homework's id. Every method of a module that names a homework takes one, so that a call that passes a submission's,
 * a course's or a tenant's id where the homework's belongs, or mixes up two ids, does not compile. Written as JSON, it
 * is the UUID text alone, as a raw UUID was.
 */
public record HomeworkId(@JsonValue UUID value) {

    public HomeworkId {
        Objects.requireNonNull(value, "a homework's id");
    }

    public static HomeworkId of(UUID value) {
        return new HomeworkId(value);
    }

    /** A new random id, for a homework being created. */
    public static HomeworkId random() {
        return new HomeworkId(UUID.randomUUID());
    }

    /** The id as the API writes it. */
    @Override
    public String toString() {
        return value.toString();
    }
}
