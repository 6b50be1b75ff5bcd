package com.chatreview.lti;

import com.chatreview.database.Sql;
import com.chatreview.sealing.Sealer;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import java.nio.charset.StandardCharsets;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The tool's RS256 keys ({@code lti_tool_keys}), one set for the whole service, each key's life worked out from when
 * it was made: published at once; signing (client assertions, deep linking responses) from
 * {@link LtiSettings#keyActivation()} later, so that platforms which cached the JWKS (an hour at most, as it is
 * served) know it before anything is signed with it; its successor made {@link LtiSettings#keyRotation()} after it
 * minus the activation; published until {@link LtiSettings#keyOverlap()} after the successor took over. The very
 * first key signs at once (no platform knows any key yet). Private keys are sealed with the operator's key. Every
 * node reads the same table, keeps what it read for a minute, and one request at a time reads it again while the
 * others go on with what was read.
 */
public class ToolKeys {

    private static final Duration REREAD = Duration.ofMinutes(1);

    private record Snapshot(RSAKey signing, JWKSet published, Instant readAt) {}

    private record StoredKey(RSAKey key, Instant createdAt) {}

    private final JdbcClient jdbc;
    private final TransactionTemplate transactions;
    private final Sealer sealer;
    private final LtiSettings settings;
    private final Clock clock;
    private final ReentrantLock rereading = new ReentrantLock();
    private volatile @Nullable Snapshot snapshot;

    ToolKeys(JdbcClient jdbc, TransactionTemplate transactions, Sealer sealer, LtiSettings settings, Clock clock) {
        this.jdbc = jdbc;
        this.transactions = transactions;
        this.sealer = sealer;
        this.settings = settings;
        this.clock = clock;
    }

    /** The public keys, as {@code GET /lti/jwks} serves them. */
    public JWKSet published() {
        return current(clock.instant()).published();
    }

    /** The key that signs now. */
    RSAKey signingKey() {
        return current(clock.instant()).signing();
    }

    /** What holds at {@code now}, read afresh (tests move time forward with it). */
    JWKSet publishedAt(Instant now) {
        return read(now).published();
    }

    RSAKey signingKeyAt(Instant now) {
        return read(now).signing();
    }

    private Snapshot current(Instant now) {
        Snapshot known = snapshot;
        if (known != null) {
            if (known.readAt().plus(REREAD).isAfter(now) && !known.readAt().isAfter(now)) {
                return known;
            }
            if (!rereading.tryLock()) {
                return known; // another request is reading; what was read a minute ago still holds
            }
        } else {
            rereading.lock();
        }
        try {
            Snapshot read = read(now);
            snapshot = read;
            return read;
        } finally {
            rereading.unlock();
        }
    }

    private Snapshot read(Instant now) {
        Snapshot read = transactions.execute(status -> {
            // one node makes a key at a time; the others wait, then read what it wrote
            jdbc.sql("SELECT pg_advisory_xact_lock(hashtextextended('lti-tool-keys', 0))")
                    .query()
                    .singleRow();
            List<StoredKey> keys = stored();
            if (keys.isEmpty()
                    || !keys.getLast()
                            .createdAt()
                            .plus(settings.keyRotation())
                            .minus(settings.keyActivation())
                            .isAfter(now)) {
                keys = new ArrayList<>(keys);
                keys.add(made(now));
            }
            StoredKey signing = keys.getFirst();
            List<JWK> published = new ArrayList<>();
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
            return new Snapshot(signing.key(), new JWKSet(published), now);
        });
        if (read == null) {
            throw new IllegalStateException("no tool key");
        }
        return read;
    }

    /** Oldest first. */
    private List<StoredKey> stored() {
        return jdbc.sql("SELECT private_key_sealed, created_at FROM lti_tool_keys ORDER BY created_at, kid")
                .query((rs, row) ->
                        new StoredKey(opened(rs.getBytes("private_key_sealed")), Sql.instantNotNull(rs, "created_at")))
                .list();
    }

    private StoredKey made(Instant now) {
        RSAKey key;
        try {
            key = new RSAKeyGenerator(2048)
                    .keyID(UUID.randomUUID().toString())
                    .algorithm(JWSAlgorithm.RS256)
                    .keyUse(KeyUse.SIGNATURE)
                    .generate();
        } catch (JOSEException e) {
            throw new IllegalStateException("Generating the tool's key failed", e);
        }
        jdbc.sql("INSERT INTO lti_tool_keys (kid, private_key_sealed, created_at) VALUES (:kid, :sealed, :created)")
                .param("kid", key.getKeyID())
                .param("sealed", sealer.seal(key.toJSONString().getBytes(StandardCharsets.UTF_8)))
                .param("created", Sql.at(now))
                .update();
        return new StoredKey(key, now);
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
