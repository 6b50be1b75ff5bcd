package com.chatreview.submission;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Objects;
import java.util.UUID;

/**
 * A submission's id. Every method of a module that names a submission takes one, so that a call that passes a chat's, a
 * homework's or a tenant's id where the submission's belongs, or mixes up two ids, does not compile. Written as JSON,
 * it is the UUID text alone, as a raw UUID was.
 */
public record SubmissionId(@JsonValue UUID value) {

    public SubmissionId {
        Objects.requireNonNull(value, "a submission's id");
    }

    public static SubmissionId of(UUID value) {
        return new SubmissionId(value);
    }

    /** A new random id, for a submission being created. */
    public static SubmissionId random() {
        return new SubmissionId(UUID.randomUUID());
    }

    /**
     * What orders the submission's webhook events, and finds them again: its erasure replaces their payloads by this
     * key (a chat's events are ordered by the chat's id, which a submission's id could equal as text).
     */
    public String webhookOrderingKey() {
        return "submission:" + value;
    }

    /** The id as the API writes it. */
    @Override
    public String toString() {
        return value.toString();
    }
}
