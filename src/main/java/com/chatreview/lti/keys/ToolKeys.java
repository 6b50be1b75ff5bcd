package com.chatreview.lti.keys;

import com.chatreview.database.Sql;
import com.chatreview.lti.LtiErrors.PlatformNotFound;
import com.chatreview.lti.LtiSettings;
import com.chatreview.sealing.Sealer;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.LoadingCache;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import java.nio.charset.StandardCharsets;
import java.sql.Types;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The tool's RS256 keys ({@code lti_tool_keys}), a set of its own for each platform registration, so that what is
 * signed for one tenant's registration (client assertions, deep linking responses) is never valid at an LMS that
 * another tenant registered: each LMS is given its registration's JWKS URL ({@code /lti/platforms/{id}/jwks}) and
 * trusts those keys alone.
 *
 * <p>Each key's life is worked out from when it was made: published at once; signing from
 * {@link LtiSettings#keyActivation()} later, so that platforms which cached the JWKS (an hour at most, as it is
 * served) know it before anything is signed with it; its successor made {@link LtiSettings#keyRotation()} after it
 * minus the activation; published until {@link LtiSettings#keyOverlap()} after the successor took over. A new
 * registration's first key signs at once (its LMS knows no key yet). Private keys are sealed with the operator's key.
 * Every node reads the same table, keeps what it read for a minute, and one request at a time reads it again while
 * the others go on with what was read.
 *
 * <p>Before registrations had keys of their own, the whole service shared one set, published at {@code /lti/jwks}.
 * Those keys sign nothing any more. A registration made then ({@code shared_jwks}) has its own keys published at
 * {@code /lti/jwks} as well, and signs with the last shared key until its own first key is active, so that its LMS,
 * told the old URL, goes on working until its administrator enters the new one; the operator retires {@code
 * /lti/jwks} ({@link LtiSettings#sharedJwks()}) once every LMS has.
 */
@Component
public class ToolKeys {

    private static final Duration REREAD = Duration.ofMinutes(1);
    private static final UUID SHARED = new UUID(0, 0);

    /** {@code signing} is null for the shared set alone: it signs nothing. */
    private record Snapshot(@Nullable RSAKey signing, JWKSet published) {}

    private record StoredKey(RSAKey key, Instant createdAt) {}

    private final JdbcClient jdbc;
    private final TransactionTemplate transactions;
    private final Sealer sealer;
    private final LtiSettings settings;
    private final Clock clock;
    /** Per platform; {@link #SHARED} holds {@code /lti/jwks}. A platform not registered is not kept. */
    private final LoadingCache<UUID, Snapshot> snapshots;

    @SuppressWarnings("NullAway") // a loader's null is Caffeine's "no entry": an unregistered platform is not kept
    ToolKeys(JdbcClient jdbc, TransactionTemplate transactions, Sealer sealer, LtiSettings settings, Clock clock) {
        this.jdbc = jdbc;
        this.transactions = transactions;
        this.sealer = sealer;
        this.settings = settings;
        this.clock = clock;
        this.snapshots = Caffeine.newBuilder()
                .maximumSize(100_000)
                // read again in the background a minute later; meanwhile every request goes on with what was read
                .refreshAfterWrite(REREAD)
                // and not kept past two minutes: an entry idle longer is read afresh, never served an hour old
                .expireAfterWrite(Duration.ofMinutes(2))
                .executor(task -> Thread.ofVirtual().name("lti-tool-keys").start(task))
                .build(platform -> platform.equals(SHARED) ? shared() : read(platform, clock.instant()));
    }

    /**
     * The registration's public keys, as {@code GET /lti/platforms/{id}/jwks} serves them.
     *
     * @throws PlatformNotFound when no such platform is registered
     */
    public JWKSet published(UUID platform) {
        return current(platform).published();
    }

    /** Whether this node read the registration's keys lately: serving them again costs no query. */
    public boolean knows(UUID platform) {
        return snapshots.getIfPresent(platform) != null;
    }

    /** The public keys {@code GET /lti/jwks} serves: those of the registrations made before each had its own. */
    public JWKSet sharedPublished() {
        if (!settings.sharedJwks()) {
            return new JWKSet();
        }
        return current(SHARED).published();
    }

    /** What {@code /lti/jwks} serves, read afresh. */
    public JWKSet sharedPublishedAfresh() {
        return shared().published();
    }

    /** The key that signs for the registration now. */
    public RSAKey signingKey(UUID platform) {
        return Objects.requireNonNull(current(platform).signing());
    }

    /** What holds at {@code now}, read afresh (tests move time forward with it). */
    public JWKSet publishedAt(UUID platform, Instant now) {
        return found(platform, read(platform, now)).published();
    }

    public RSAKey signingKeyAt(UUID platform, Instant now) {
        return Objects.requireNonNull(found(platform, read(platform, now)).signing());
    }

    private Snapshot current(UUID platform) {
        return found(platform, snapshots.get(platform));
    }

    private static Snapshot found(UUID platform, @Nullable Snapshot snapshot) {
        if (snapshot == null) {
            throw new PlatformNotFound(platform);
        }
        return snapshot;
    }

    /** The registration's keys at {@code now}, its first made if it has none; none if it is not registered. */
    private @Nullable Snapshot read(UUID platform, Instant now) {
        return transactions.execute(status -> {
            // one node makes a registration's key at a time; the others wait, then read what it wrote
            jdbc.sql("SELECT pg_advisory_xact_lock(hashtextextended('lti-tool-keys:' || :platform, 0))")
                    .param("platform", platform.toString())
                    .query()
                    .singleRow();
            Optional<Boolean> sharedJwks = jdbc.sql(
                            "SELECT shared_jwks FROM lti_platforms WHERE id = :platform FOR KEY SHARE")
                    .param("platform", platform)
                    .query(Boolean.class)
                    .optional();
            if (sharedJwks.isEmpty()) {
                return null;
            }
            List<StoredKey> keys = stored(platform);
            if (keys.isEmpty()
                    || !keys.getLast()
                            .createdAt()
                            .plus(settings.keyRotation())
                            .minus(settings.keyActivation())
                            .isAfter(now)) {
                keys = new ArrayList<>(keys);
                keys.add(made(platform, now));
            }
            List<JWK> published = new ArrayList<>();
            StoredKey signing = keys.getFirst();
            if (sharedJwks.get()
                    && keys.getFirst()
                            .createdAt()
                            .plus(settings.keyActivation())
                            .isAfter(now)) {
                // made before registrations had keys of their own: the shared key signs until its first is active
                // the last one LMSes that cached /lti/jwks know: active (a day old) when the registrations got keys
                List<StoredKey> shared = stored(null).stream()
                        .filter(key ->
                                !key.createdAt().plus(settings.keyActivation()).isAfter(now))
                        .toList();
                if (!shared.isEmpty()) {
                    signing = shared.getLast();
                    published.add(signing.key().toPublicJWK());
                }
            }
            for (int i = 0; i < keys.size(); i++) {
                StoredKey key = keys.get(i);
                if (!key.createdAt().plus(settings.keyActivation()).isAfter(now)) {
                    signing = key;
                }
                Instant replaced =
                        i + 1 < keys.size() ? keys.get(i + 1).createdAt().plus(settings.keyActivation()) : null;
                if (replaced == null || replaced.plus(settings.keyOverlap()).isAfter(now)) {
                    published.add(key.key().toPublicJWK());
                } else {
                    forget(key);
                }
            }
            return new Snapshot(signing.key(), new JWKSet(published));
        });
    }

    /**
     * The keys shared before, and those each registration made then has now, read as they are: nothing is made here
     * (a registration's own key is made when it is first read, and this set shows it within a minute).
     */
    private Snapshot shared() {
        List<JWK> published = jdbc.sql("""
                        SELECT private_key_sealed FROM lti_tool_keys
                        WHERE platform_id IS NULL OR platform_id IN (SELECT id FROM lti_platforms WHERE shared_jwks)
                        ORDER BY created_at, kid""")
                .query((rs, row) ->
                        (JWK) opened(rs.getBytes("private_key_sealed")).toPublicJWK())
                .list();
        return new Snapshot(null, new JWKSet(published));
    }

    /** Oldest first; the shared ones when {@code platform} is null. */
    private List<StoredKey> stored(@Nullable UUID platform) {
        return jdbc.sql("SELECT private_key_sealed, created_at FROM lti_tool_keys"
                        + " WHERE platform_id IS NOT DISTINCT FROM CAST(:platform AS uuid) ORDER BY created_at, kid")
                .param("platform", platform == null ? null : platform.toString(), Types.VARCHAR)
                .query((rs, row) ->
                        new StoredKey(opened(rs.getBytes("private_key_sealed")), Sql.instantNotNull(rs, "created_at")))
                .list();
    }

    private StoredKey made(UUID platform, Instant now) {
        RSAKey key = generated();
        jdbc.sql("""
                        INSERT INTO lti_tool_keys (kid, platform_id, private_key_sealed, created_at)
                        VALUES (:kid, :platform, :sealed, :created)""")
                .param("kid", key.getKeyID())
                .param("platform", platform)
                .param("sealed", sealer.seal(key.toJSONString().getBytes(StandardCharsets.UTF_8)))
                .param("created", Sql.at(now))
                .update();
        return new StoredKey(key, now);
    }

    private static RSAKey generated() {
        try {
            return new RSAKeyGenerator(2048)
                    .keyID(UUID.randomUUID().toString())
                    .algorithm(JWSAlgorithm.RS256)
                    .keyUse(KeyUse.SIGNATURE)
                    .generate();
        } catch (JOSEException e) {
            throw new IllegalStateException("Generating a tool key failed", e);
        }
    }

    private void forget(StoredKey key) {
        jdbc.sql("DELETE FROM lti_tool_keys WHERE kid = :kid")
                .param("kid", key.key().getKeyID())
                .update();
    }

    private RSAKey opened(byte[] sealed) {
        try {
            return RSAKey.parse(new String(sealer.open(sealed), StandardCharsets.UTF_8));
        } catch (ParseException e) {
            throw new IllegalStateException("A stored tool key is not a JWK", e);
        }
    }
}
