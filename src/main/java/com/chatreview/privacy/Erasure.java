package com.chatreview.privacy;

import java.time.Instant;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * A user's erasure as recorded: counts and a hash of the user id, nothing of the user.
 *
 * @param userIdHash the lowercase hex SHA-256 of the user id's UTF-8 bytes (a tenant can compute it to match)
 * @param finishedAt when it was done; {@code null} while it runs
 */
public record Erasure(
        UUID id,
        String userIdHash,
        Status status,
        Instant startedAt,
        @Nullable Instant finishedAt,
        int chats,
        int messages,
        int submissions,
        int files) {

    public enum Status {
        RUNNING,
        DONE;

        public String value() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }
}
