package com.chatreview.kernel;

import java.util.Optional;
import java.util.UUID;

/** Ids as clients send them: a value that is not a UUID names nothing (docs/api.md, Conventions), it is not an error. */
public final class Ids {

    private Ids() {}

    /** The UUID the value spells, or empty when it spells none (or is {@code null}). */
    public static Optional<UUID> uuid(String value) {
        if (value == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(UUID.fromString(value));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
