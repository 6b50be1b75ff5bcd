package com.chatreview.lti.grades;

import com.chatreview.lti.LtiPlatform;
import com.chatreview.lti.LtiSettings;
import com.chatreview.lti.keys.PlatformHttp;
import com.chatreview.lti.keys.PlatformTokens;
import com.chatreview.lti.platforms.Platforms;
import com.chatreview.outbound.OutboxWorker;
import com.chatreview.outbound.RetryAfter;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Sends the outbox's scores ({@link GradePassback}) to the platforms' line items (docs/lti.md, Grades), from every
 * node, through an {@link OutboxWorker}: a node claims one due score at a time with {@code FOR UPDATE SKIP LOCKED}, a
 * token of its own and a lease
 * ({@code lti.score-lease}, on the database's clock), so that no two nodes send the same one at once and a node that
 * dies mid-send (kill -9) leaves it to another once the lease ends; what it writes of the score afterwards holds only
 * while its claim does. Scores of one line item and user go in the order they were written: one is taken only when
 * none before it is still to send. A node sends {@link #IN_FLIGHT} scores at once, at most
 * {@link #IN_FLIGHT_PER_PLATFORM} of them to one platform: a platform that stalls (10 s to each answer) holds up its
 * own scores, not the other tenants'.
 *
 * <p>A score is delivered when the platform answers 2xx, or 409 (Moodle's answer to a timestamp it has seen: the
 * same score, sent before). 401 drops the cached token and tries again at once with a fresh one; 408, 429, 5xx, no
 * answer and a token the platform would not give wait, longer each time ({@code lti.score-first-retry}, doubling up
 * to {@code lti.score-max-retry}, or the platform's {@code Retry-After} if longer); any other answer, or {@code
 * lti.score-give-up-after} of trying, gives the score up (kept, with the reason).
 */
@Component
public class ScoreDelivery implements OutboxWorker.Outbox<ScoreDelivery.Due> {

    private static final Logger log = LoggerFactory.getLogger(ScoreDelivery.class);
    static final String SCORE_TYPE = "application/vnd.ims.lis.v1.score+json";

    private static final Duration PURGE_EVERY = Duration.ofHours(1);
    /** Scores a node sends at once, and of these at most so many to one platform (a stalled one keeps only these). */
    static final int IN_FLIGHT = 16;

    public static final int IN_FLIGHT_PER_PLATFORM = 4;

    private final JdbcClient jdbc;
    private final Platforms platforms;
    private final PlatformTokens tokens;
    private final PlatformHttp http;
    private final LtiSettings settings;
    private volatile long lastPurge;

    public ScoreDelivery(
            JdbcClient jdbc, Platforms platforms, PlatformTokens tokens, PlatformHttp http, LtiSettings settings) {
        this.jdbc = jdbc;
        this.platforms = platforms;
        this.tokens = tokens;
        this.http = http;
        this.settings = settings;
    }

    /** The worker that sends these scores from this node. */
    public OutboxWorker<Due> worker() {
        return new OutboxWorker<>(
                "lti-scores", this, new OutboxWorker.Limits(IN_FLIGHT, IN_FLIGHT_PER_PLATFORM, settings.scorePoll()));
    }

    /** A score claimed for sending, and whether it has been tried for longer than {@code lti.score-give-up-after}. */
    public record Due(
            long seq, UUID claim, UUID platformId, String lineItem, String score, int attempts, boolean overdue) {}

    @Override
    public List<Due> claimDue(int limit, Set<String> busyPlatforms) {
        return claimNext(String.join(",", busyPlatforms)).stream().toList();
    }

    @Override
    public String destination(Due due) {
        return due.platformId().toString();
    }

    @Override
    public void send(Due due) {
        deliver(due);
    }

    @Override
    public void idle() {
        purgeSettled();
    }

    /**
     * Deletes the scores delivered or given up longer than {@code lti.score-retention} ago, now and then (every node
     * does, at most hourly: a few deletes of nothing).
     */
    public void purgeSettled() {
        long now = System.nanoTime();
        if (lastPurge != 0 && now - lastPurge < PURGE_EVERY.toNanos()) {
            return;
        }
        lastPurge = now;
        int purged;
        do {
            purged = jdbc.sql("""
                            DELETE FROM lti_scores WHERE seq IN (
                                SELECT seq FROM lti_scores
                                WHERE (delivered_at IS NOT NULL OR given_up_at IS NOT NULL)
                                  AND coalesce(delivered_at, given_up_at)
                                      < now() - :retentionMillis * interval '1 millisecond'
                                LIMIT 1000)""")
                    .param("retentionMillis", settings.scoreRetention().toMillis())
                    .update();
        } while (purged == 1000);
    }

    /**
     * Claims the first due score of a line none of whose earlier scores is still to send: one at a time, so that the
     * lease has to cover a single send however slow the platforms are, on the database's clock, so that the nodes'
     * clocks need not agree.
     */
    private Optional<Due> claimNext(String busyPlatforms) {
        UUID claim = UUID.randomUUID();
        return jdbc.sql("""
                        UPDATE lti_scores SET next_attempt_at = now() + :leaseMillis * interval '1 millisecond',
                                              attempts = attempts + 1, claimed_by = :claim
                        WHERE seq = (
                            SELECT s.seq FROM lti_scores s
                            WHERE s.delivered_at IS NULL AND s.given_up_at IS NULL AND s.next_attempt_at <= now()
                              AND s.platform_id::text <> ALL (string_to_array(:busy, ','))
                              AND NOT EXISTS (SELECT 1 FROM lti_scores e
                                              WHERE e.line_item_url = s.line_item_url AND e.user_id = s.user_id
                                                AND e.delivered_at IS NULL AND e.given_up_at IS NULL
                                                AND e.seq < s.seq)
                            ORDER BY s.seq LIMIT 1
                            FOR UPDATE SKIP LOCKED)
                        RETURNING seq, platform_id, line_item_url, score::text AS score, attempts,
                                  coalesce(resent_at, created_at) + :giveUpMillis * interval '1 millisecond' < now()
                                      AS overdue""")
                .param("leaseMillis", settings.scoreLease().toMillis())
                .param("giveUpMillis", settings.scoreGiveUpAfter().toMillis())
                .param("claim", claim)
                .param("busy", busyPlatforms)
                .query((rs, row) -> new Due(
                        rs.getLong("seq"),
                        claim,
                        rs.getObject("platform_id", UUID.class),
                        rs.getString("line_item_url"),
                        rs.getString("score"),
                        rs.getInt("attempts"),
                        rs.getBoolean("overdue")))
                .optional();
    }

    private void deliver(Due due) {
        Optional<LtiPlatform> platform = platforms.byId(due.platformId());
        if (platform.isEmpty()) {
            return; // deleted meanwhile: its scores go with it
        }
        String token;
        try {
            token = tokens.scoreToken(platform.get());
        } catch (PlatformTokens.TokenRefused refused) {
            // a refused client (400, 401) is a registration to mend on the platform's side, which its admin can do
            // while the score waits
            retry(due, String.valueOf(refused.getMessage()), Duration.ZERO);
            return;
        } catch (IOException unreachable) {
            retry(due, "the token endpoint: " + unreachable.getMessage(), Duration.ZERO);
            return;
        }
        PlatformHttp.Answer answer;
        try {
            answer = http.post(
                    scoresUrl(due.lineItem()), SCORE_TYPE, due.score(), Map.of("Authorization", "Bearer " + token));
        } catch (PlatformHttp.Refused | IllegalArgumentException refused) {
            giveUp(due, "the line item's URL: " + refused.getMessage());
            return;
        } catch (IOException unreachable) {
            retry(due, String.valueOf(unreachable.getMessage()), Duration.ZERO);
            return;
        }
        int status = answer.status();
        if (status / 100 == 2 || status == 409) {
            settle(due, "delivered_at = now(), last_error = NULL", Map.of());
            return;
        }
        String error = "the line item's scores answered " + status; // the body is the platform's: never kept
        if (status == 401) {
            tokens.refused(platform.get(), token);
            // once at once with a fresh token; after that, as any other wait
            if (due.attempts() <= 1 && !due.overdue()) {
                settle(due, "next_attempt_at = now(), last_error = :error", Map.of("error", error));
            } else {
                retry(due, error, Duration.ZERO);
            }
            return;
        }
        if (status == 408 || status == 429 || status >= 500) {
            retry(due, error, RetryAfter.of(answer.headers().get("Retry-After")));
        } else {
            giveUp(due, error);
        }
    }

    /** Sends the score again after the backoff, or the platform's Retry-After if longer; or gives it up, overdue. */
    private void retry(Due due, String error, Duration atLeast) {
        if (due.overdue()) {
            giveUp(due, error);
            return;
        }
        Duration backoff = backoff(due.attempts());
        Duration delay = atLeast.compareTo(backoff) > 0 ? atLeast : backoff;
        settle(
                due,
                "next_attempt_at = now() + :delayMillis * interval '1 millisecond', last_error = :error",
                Map.of("delayMillis", delay.toMillis(), "error", error));
    }

    private void giveUp(Due due, String error) {
        log.warn("An LTI score (outbox row {}) was given up: {}", due.seq(), error);
        settle(due, "given_up_at = now(), last_error = :error", Map.of("error", error));
    }

    /** Writes what became of the score, if this node's claim of it still holds. */
    private void settle(Due due, String assignments, Map<String, Object> params) {
        int updated = jdbc.sql("UPDATE lti_scores SET " + assignments + " WHERE seq = :seq AND claimed_by = :claim")
                .params(params)
                .param("seq", due.seq())
                .param("claim", due.claim())
                .update();
        if (updated == 0) {
            log.warn(
                    "An LTI score (outbox row {}) was claimed by another node while this one sent it: its lease"
                            + " (lti.score-lease) is shorter than a send took",
                    due.seq());
        }
    }

    private Duration backoff(int attempts) {
        Duration delay = settings.scoreFirstRetry().multipliedBy(1L << Math.min(20, Math.max(0, attempts - 1)));
        return delay.compareTo(settings.scoreMaxRetry()) > 0 ? settings.scoreMaxRetry() : delay;
    }

    /** The line item's scores endpoint: {@code /scores} after its path, before its query (Moodle keeps one). */
    static URI scoresUrl(String lineItem) {
        URI uri = URI.create(lineItem);
        String path = uri.getRawPath() == null ? "" : uri.getRawPath();
        String scores = (path.endsWith("/") ? path.substring(0, path.length() - 1) : path) + "/scores";
        return URI.create(uri.getScheme() + "://" + uri.getRawAuthority() + scores
                + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery()));
    }
}
