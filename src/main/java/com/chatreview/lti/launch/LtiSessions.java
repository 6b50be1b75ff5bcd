package com.chatreview.lti.launch;

import com.chatreview.database.Sql;
import com.chatreview.kernel.Sha256;
import com.chatreview.lti.LaunchRefused;
import com.chatreview.lti.LtiSettings;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.scheduling.annotation.Scheduled;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * The sessions of launches ({@code lti_sessions}): a random token (32 bytes) per verified launch, stored as its
 * hash, valid for {@link LtiSettings#sessionLifetime()}. Every node finds every session (PostgreSQL), so a page's
 * next request may reach any node. The launch is kept without the user's email (no page shows it); its name is kept
 * for the pages, and goes with the session. Expired sessions are removed every few minutes.
 */
public class LtiSessions {

    private static final Logger log = LoggerFactory.getLogger(LtiSessions.class);

    private static final Base64.Encoder URL_SAFE = Base64.getUrlEncoder().withoutPadding();
    private static final int MAX_TOKEN = 64;

    private final JdbcClient jdbc;
    private final JsonMapper json;
    private final Duration lifetime;
    private final Clock clock;
    private final SecureRandom random = new SecureRandom();

    LtiSessions(JdbcClient jdbc, JsonMapper json, Duration lifetime, Clock clock) {
        this.jdbc = jdbc;
        this.json = json;
        this.lifetime = lifetime;
        this.clock = clock;
    }

    public LtiSession open(LtiLaunch launch) {
        byte[] bytes = new byte[32];
        random.nextBytes(bytes);
        String token = URL_SAFE.encodeToString(bytes);
        Instant now = Sql.now(clock);
        Instant expiresAt = now.plus(lifetime);
        jdbc.sql("""
                INSERT INTO lti_sessions (token_hash, tenant_id, platform_id, user_id, launch, created_at, expires_at)
                VALUES (:hash, :tenant, :platform, :user, :launch::jsonb, :created, :expires)""")
                .param("hash", hash(token))
                .param("tenant", launch.platform().tenantId().value())
                .param("platform", launch.platform().id())
                .param("user", launch.studentId())
                .param("launch", json.writeValueAsString(launch.withoutEmail()))
                .param("created", Sql.at(now))
                .param("expires", Sql.at(expiresAt))
                .update();
        return new LtiSession(token, launch.withoutEmail(), expiresAt);
    }

    /** The session of the token, unless it expired, or its platform, or the user, was deleted since. */
    public Optional<LtiSession> find(@Nullable String token) {
        if (token == null || token.isEmpty() || token.length() > MAX_TOKEN) {
            return Optional.empty();
        }
        return jdbc.sql("SELECT launch::text, expires_at FROM lti_sessions WHERE token_hash = :hash"
                        + " AND expires_at > :now AND binding_hash IS NULL")
                .param("hash", hash(token))
                .param("now", Sql.at(clock.instant()))
                .query((rs, row) -> {
                    Instant expiresAt = Sql.instantNotNull(rs, "expires_at");
                    return readable(rs.getString(1)).map(launch -> new LtiSession(token, launch, expiresAt));
                })
                .optional()
                .flatMap(found -> found);
    }

    /**
     * The launch as stored, if this version of the service reads it: one written by a version whose launch had other
     * fields is a session that expired (its user launches again), not a failure of the page.
     */
    private Optional<LtiLaunch> readable(String stored) {
        try {
            return Optional.of(json.readValue(stored, LtiLaunch.class));
        } catch (JacksonException unreadable) {
            log.info(
                    "An LTI session's launch is not readable by this version; the session is treated as expired: {}",
                    unreadable.getOriginalMessage());
            return Optional.empty();
        }
    }

    /**
     * Holds the session closed until its browser shows the value its login put in the LMS's storage ({@link
     * #bind}).
     *
     * @param storedValueHash the value's SHA-256, Base64url
     */
    public void awaitBrowser(LtiSession session, String storedValueHash) {
        jdbc.sql("UPDATE lti_sessions SET binding_hash = :binding WHERE token_hash = :hash")
                .param("binding", Base64.getUrlDecoder().decode(storedValueHash))
                .param("hash", hash(session.token()))
                .update();
    }

    /**
     * Opens the session held for its browser if this is the value the login put in the LMS's storage; ends it if not
     * (a launch shown in a browser that did not start its login: login CSRF).
     */
    public Optional<LtiSession> bind(@Nullable String token, @Nullable String value) {
        if (token == null || token.isEmpty() || token.length() > MAX_TOKEN) {
            return Optional.empty();
        }
        Optional<LtiSession> bound = value == null || value.isEmpty() || value.length() > MAX_TOKEN
                ? Optional.empty()
                : jdbc.sql("""
                                UPDATE lti_sessions SET binding_hash = NULL
                                WHERE token_hash = :hash AND expires_at > :now AND binding_hash = :binding
                                RETURNING launch::text, expires_at""")
                        .param("hash", hash(token))
                        .param("now", Sql.at(clock.instant()))
                        .param("binding", hash(value))
                        .query((rs, row) -> {
                            Instant expiresAt = Sql.instantNotNull(rs, "expires_at");
                            return readable(rs.getString(1)).map(launch -> new LtiSession(token, launch, expiresAt));
                        })
                        .optional()
                        .flatMap(found -> found);
        if (bound.isEmpty()) {
            jdbc.sql("DELETE FROM lti_sessions WHERE token_hash = :hash AND binding_hash IS NOT NULL")
                    .param("hash", hash(token))
                    .update();
        }
        return bound;
    }

    /** Removes the expired sessions, a batch at a time, on every node (the DELETE is the same from each). */
    @Scheduled(fixedDelayString = "PT5M", initialDelayString = "PT1M")
    public void removeExpired() {
        int removed;
        do {
            removed = jdbc.sql("""
                            DELETE FROM lti_sessions WHERE token_hash IN (
                                SELECT token_hash FROM lti_sessions WHERE expires_at < :now LIMIT 1000)""").param("now", Sql.at(clock.instant())).update();
        } while (removed == 1000);
    }

    /**
     * The session of the token.
     *
     * @throws LaunchRefused when there is none: it expired, was used, or never was
     */
    public LtiSession require(@Nullable String token) {
        return find(token)
                .orElseThrow(() -> LaunchRefused.because("This page has expired or was used (a page of the tool works"
                        + " for an hour after it was opened from the LMS). Open it again from your course."));
    }

    /**
     * Ends the session if it is still open, and says whether this call ended it: of two requests that would each
     * end it (a form sent twice), one does, in the caller's transaction (rolled back, the session is open again).
     */
    public boolean take(LtiSession session) {
        return jdbc.sql("DELETE FROM lti_sessions WHERE token_hash = :hash AND expires_at > :now")
                        .param("hash", hash(session.token()))
                        .param("now", Sql.at(clock.instant()))
                        .update()
                == 1;
    }

    /** Ends the session: its token opens nothing more. */
    public void close(LtiSession session) {
        jdbc.sql("DELETE FROM lti_sessions WHERE token_hash = :hash")
                .param("hash", hash(session.token()))
                .update();
    }

    private static byte[] hash(String token) {
        return Sha256.digest().digest(token.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
}
