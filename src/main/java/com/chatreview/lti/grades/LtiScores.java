package com.chatreview.lti.grades;

import com.chatreview.database.AfterCommit;
import com.chatreview.database.Sql;
import com.chatreview.lti.LtiErrors.PlatformNotFound;
import com.chatreview.lti.platforms.Platforms;
import com.chatreview.tenancy.TenantId;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.annotation.Transactional;

/**
 * A platform's scores not yet in its gradebook, as its tenant sees them, and the given-up ones sent again (docs/lti.md,
 * Grades): a platform that refused scores for days (its tool registration broken, say) gets them once it is mended.
 */
public class LtiScores {

    /** Scores listed at most: the oldest first, the counts say how many there are. */
    static final int LISTED = 100;

    /** One score of the outbox. */
    public record Score(
            long seq,
            UUID submissionId,
            String state,
            String lineItemUrl,
            String userId,
            int attempts,
            Instant createdAt,
            @Nullable Instant nextAttemptAt,
            @Nullable Instant givenUpAt,
            @Nullable String lastError) {}

    /** The platform's scores to send and given up: how many of each, and the oldest of them. */
    public record Undelivered(long toSend, long givenUp, List<Score> scores) {}

    /** What a resend did: given-up scores sent again, and those left as they are for a later score of their line. */
    public record Resent(int resent, int superseded) {}

    private final JdbcClient jdbc;
    private final Platforms platforms;
    private final Runnable wake;

    LtiScores(JdbcClient jdbc, Platforms platforms, Runnable wake) {
        this.jdbc = jdbc;
        this.platforms = platforms;
        this.wake = wake;
    }

    /** @throws PlatformNotFound when the tenant has no such platform */
    @Transactional(readOnly = true)
    public Undelivered undelivered(TenantId tenant, UUID platform) {
        requirePlatform(tenant, platform);
        record Counts(long toSend, long givenUp) {}
        Counts counts = jdbc.sql("""
                        SELECT count(*) FILTER (WHERE given_up_at IS NULL) AS to_send,
                               count(*) FILTER (WHERE given_up_at IS NOT NULL) AS given_up
                        FROM lti_scores
                        WHERE platform_id = :platform AND tenant_id = :tenant AND delivered_at IS NULL""")
                .param("platform", platform)
                .param("tenant", tenant.value())
                .query((rs, row) -> new Counts(rs.getLong("to_send"), rs.getLong("given_up")))
                .single();
        List<Score> scores = jdbc.sql("""
                        SELECT seq, submission_id, state, line_item_url, user_id, attempts, created_at,
                               CASE WHEN given_up_at IS NULL THEN next_attempt_at END AS next_attempt_at,
                               given_up_at, last_error
                        FROM lti_scores
                        WHERE platform_id = :platform AND tenant_id = :tenant AND delivered_at IS NULL
                        ORDER BY seq LIMIT :limit""")
                .param("platform", platform)
                .param("tenant", tenant.value())
                .param("limit", LISTED)
                .query((rs, row) -> new Score(
                        rs.getLong("seq"),
                        rs.getObject("submission_id", UUID.class),
                        rs.getString("state"),
                        rs.getString("line_item_url"),
                        rs.getString("user_id"),
                        rs.getInt("attempts"),
                        Sql.instantNotNull(rs, "created_at"),
                        Sql.instant(rs, "next_attempt_at"),
                        Sql.instant(rs, "given_up_at"),
                        rs.getString("last_error")))
                .list();
        return new Undelivered(counts.toSend(), counts.givenUp(), scores);
    }

    /**
     * Sends the platform's given-up scores again, each the last of its line (column and learner): an older one would
     * put an earlier state over the later one the gradebook holds.
     *
     * @throws PlatformNotFound when the tenant has no such platform
     */
    @Transactional
    public Resent resendGivenUp(TenantId tenant, UUID platform) {
        requirePlatform(tenant, platform);
        int resent = jdbc.sql("""
                        UPDATE lti_scores s
                        SET given_up_at = NULL, attempts = 0, next_attempt_at = now(), resent_at = now()
                        WHERE s.platform_id = :platform AND s.tenant_id = :tenant AND s.given_up_at IS NOT NULL
                          AND NOT EXISTS (SELECT 1 FROM lti_scores later
                                          WHERE later.line_item_url = s.line_item_url
                                            AND later.user_id = s.user_id AND later.seq > s.seq)""")
                .param("platform", platform)
                .param("tenant", tenant.value())
                .update();
        int superseded = jdbc.sql("""
                        SELECT count(*) FROM lti_scores
                        WHERE platform_id = :platform AND tenant_id = :tenant AND given_up_at IS NOT NULL""")
                .param("platform", platform)
                .param("tenant", tenant.value())
                .query(Integer.class)
                .single();
        if (resent > 0) {
            AfterCommit.run(wake);
        }
        return new Resent(resent, superseded);
    }

    private void requirePlatform(TenantId tenant, UUID platform) {
        if (platforms.find(tenant, platform).isEmpty()) {
            throw new PlatformNotFound(platform);
        }
    }
}
