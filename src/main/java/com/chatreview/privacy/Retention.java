package com.chatreview.privacy;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * How long a tenant keeps its users' data; {@code null} keeps it until it is deleted.
 *
 * @param messagesDays a chat whose last message (or, without one, its creation) is older than this many days is
 *     erased with its messages; a submission's review chat follows the submission instead
 * @param submissionsDays a submission older than this many days is erased with its files, decisions and review chat
 */
public record Retention(
        @Nullable Integer messagesDays, @Nullable Integer submissionsDays) {

    /** The most days a setting takes: a hundred years. */
    public static final int MAX_DAYS = 36_500;

    public static final Retention KEEP_ALL = new Retention(null, null);

    /** Before this, a chat's last activity is too old; empty when chats are kept. */
    public Optional<Instant> chatsInactiveBefore(Instant now) {
        return messagesDays == null ? Optional.empty() : Optional.of(now.minus(Duration.ofDays(messagesDays)));
    }

    /** Before this, a submission is too old; empty when submissions are kept. */
    public Optional<Instant> submissionsCreatedBefore(Instant now) {
        return submissionsDays == null ? Optional.empty() : Optional.of(now.minus(Duration.ofDays(submissionsDays)));
    }
}
