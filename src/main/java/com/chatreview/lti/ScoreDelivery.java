package com.chatreview.lti;

import com.chatreview.database.Sql;
import java.io.IOException;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Sends the outbox's scores ({@link GradePassback}) to the platforms' line items (docs/lti.md, Grades), from every
 * node: a node takes due scores with {@code FOR UPDATE SKIP LOCKED} and a lease ({@code lti.score-lease}), so that no two nodes send the same
 * one at once and a node that dies mid-send (kill -9) leaves it to another once the lease ends. Scores of one line
 * item and user go in the order they were written: one is taken only when none before it is still to send.
 *
 * <p>A score is delivered when the platform answers 2xx, or 409 (Moodle's answer to a timestamp it has seen: the
 * same score, sent before). 401 drops the cached token and tries again with a fresh one; 408, 429, 5xx and no answer
 * wait, longer each time ({@code lti.score-first-retry}, doubling up to {@code lti.score-max-retry}); any other
 * answer, or {@code lti.score-give-up-after} of trying, gives the score up (kept, with the reason).
 */
class ScoreDelivery implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(ScoreDelivery.class);
    static final String SCORE_TYPE = "application/vnd.ims.lis.v1.score+json";

    private static final int BATCH = 20;

    private final JdbcClient jdbc;
    private final Platforms platforms;
    private final PlatformTokens tokens;
    private final PlatformHttp http;
    private final LtiSettings settings;
    private final Clock clock;
    private final Semaphore wakeUp = new Semaphore(0);
    private volatile boolean running;
    private @Nullable Thread worker;

    ScoreDelivery(
            JdbcClient jdbc,
            Platforms platforms,
            PlatformTokens tokens,
            PlatformHttp http,
            LtiSettings settings,
            Clock clock) {
        this.jdbc = jdbc;
        this.platforms = platforms;
        this.tokens = tokens;
        this.http = http;
        this.settings = settings;
        this.clock = clock;
    }

    /** Scores were written: look for them now, not at the next poll. */
    void wake() {
        wakeUp.release();
    }

    @Override
    public void start() {
        running = true;
        worker = Thread.ofVirtual().name("lti-scores").start(this::run);
    }

    @Override
    public void stop() {
        running = false;
        Thread thread = worker;
        if (thread != null) {
            thread.interrupt();
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    private void run() {
        while (running) {
            try {
                int sent = deliverDue();
                if (sent == 0) {
                    wakeUp.tryAcquire(settings.scorePoll().toMillis(), TimeUnit.MILLISECONDS);
                    wakeUp.drainPermits();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                // the database away for a moment: the scores stay in the outbox
                log.warn("Sending LTI scores failed; trying again at the next poll: {}", e.toString());
                try {
                    Thread.sleep(settings.scorePoll().toMillis());
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    private record Due(long seq, UUID platformId, String lineItem, String score, int attempts, Instant createdAt) {}

    /** Takes the due scores (first of their line), sends each; how many were taken. */
    int deliverDue() {
        Instant now = clock.instant();
        List<Due> taken = jdbc.sql("""
                        UPDATE lti_scores SET next_attempt_at = :leaseEnds, attempts = attempts + 1
                        WHERE seq IN (
                            SELECT s.seq FROM lti_scores s
                            WHERE s.delivered_at IS NULL AND s.given_up_at IS NULL AND s.next_attempt_at <= :now
                              AND NOT EXISTS (SELECT 1 FROM lti_scores e
                                              WHERE e.line_item_url = s.line_item_url AND e.user_id = s.user_id
                                                AND e.delivered_at IS NULL AND e.given_up_at IS NULL
                                                AND e.seq < s.seq)
                            ORDER BY s.seq LIMIT :batch
                            FOR UPDATE SKIP LOCKED)
                        RETURNING seq, platform_id, line_item_url, score::text AS score, attempts, created_at""")
                .param("leaseEnds", Sql.at(now.plus(settings.scoreLease())))
                .param("now", Sql.at(now))
                .param("batch", BATCH)
                .query((rs, row) -> new Due(
                        rs.getLong("seq"),
                        rs.getObject("platform_id", UUID.class),
                        rs.getString("line_item_url"),
                        rs.getString("score"),
                        rs.getInt("attempts"),
                        Sql.instantNotNull(rs, "created_at")))
                .list();
        taken.forEach(this::deliver);
        return taken.size();
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
            retryOrGiveUp(
                    due, String.valueOf(refused.getMessage()), null, refused.status >= 500 || refused.status == 429);
            return;
        } catch (IOException unreachable) {
            retryOrGiveUp(due, "the token endpoint: " + unreachable.getMessage(), null, true);
            return;
        }
        PlatformHttp.Answer answer;
        try {
            answer = http.post(
                    scoresUrl(due.lineItem()), SCORE_TYPE, due.score(), Map.of("Authorization", "Bearer " + token));
        } catch (IOException | IllegalArgumentException unreachable) {
            retryOrGiveUp(due, String.valueOf(unreachable.getMessage()), null, true);
            return;
        }
        int status = answer.status();
        if (status / 100 == 2 || status == 409) {
            jdbc.sql("UPDATE lti_scores SET delivered_at = :now, last_error = NULL WHERE seq = :seq")
                    .param("now", Sql.at(clock.instant()))
                    .param("seq", due.seq())
                    .update();
            return;
        }
        String error = "the line item's scores answered " + status + ": " + PlatformTokens.abbreviated(answer.body());
        if (status == 401) {
            tokens.refused(platform.get(), token);
            // once at once with a fresh token; after that, as any other wait
            retryOrGiveUp(due, error, due.attempts() <= 1 ? Duration.ZERO : null, true);
            return;
        }
        retryOrGiveUp(due, error, retryAfter(answer), status == 408 || status == 429 || status >= 500);
    }

    private void retryOrGiveUp(Due due, String error, @Nullable Duration wait, boolean passing) {
        Instant now = clock.instant();
        if (!passing || due.createdAt().plus(settings.scoreGiveUpAfter()).isBefore(now)) {
            log.warn("An LTI score (outbox row {}) was given up: {}", due.seq(), error);
            jdbc.sql("UPDATE lti_scores SET given_up_at = :now, last_error = :error WHERE seq = :seq")
                    .param("now", Sql.at(now))
                    .param("error", error)
                    .param("seq", due.seq())
                    .update();
            return;
        }
        Duration delay = wait != null ? wait : backoff(due.attempts());
        jdbc.sql("UPDATE lti_scores SET next_attempt_at = :next, last_error = :error WHERE seq = :seq")
                .param("next", Sql.at(now.plus(delay)))
                .param("error", error)
                .param("seq", due.seq())
                .update();
    }

    private Duration backoff(int attempts) {
        Duration delay = settings.scoreFirstRetry().multipliedBy(1L << Math.min(20, Math.max(0, attempts - 1)));
        return delay.compareTo(settings.scoreMaxRetry()) > 0 ? settings.scoreMaxRetry() : delay;
    }

    private static @Nullable Duration retryAfter(PlatformHttp.Answer answer) {
        String value = answer.headers().get("Retry-After");
        if (value == null) {
            return null;
        }
        try {
            return Duration.ofSeconds(Math.min(3600, Math.max(0, Long.parseLong(value.strip()))));
        } catch (NumberFormatException e) {
            return null;
        }
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
