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
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The tool's RS256 keys ({@code lti_tool_keys}), one set for the whole service: the newest unretired key signs (client
 * assertions, deep linking responses); when it is {@link LtiSettings#keyRotation()} old, a new one takes over and
 * the old one stays published for {@link LtiSettings#keyOverlap()}, so that a platform that cached the JWKS still
 * verifies what was signed before. Private keys are sealed with the operator's key. Every node reads the same
 * table, and a node keeps what it read for a minute at most.
 */
public class ToolKeys {

    private static final Duration REREAD = Duration.ofMinutes(1);

    private record Snapshot(RSAKey signing, JWKSet published, Instant readAt) {}

    private final JdbcClient jdbc;
    private final TransactionTemplate transactions;
    private final Sealer sealer;
    private final LtiSettings settings;
    private final Clock clock;
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

    /** What holds at {@code now}: rotates the key if it is due (tests move time forward with it). */
    JWKSet publishedAt(Instant now) {
        return read(now).published();
    }

    RSAKey signingKeyAt(Instant now) {
        return read(now).signing();
    }

    private Snapshot current(Instant now) {
        Snapshot known = snapshot;
        if (known != null
                && known.readAt().plus(REREAD).isAfter(now)
                && !known.readAt().isAfter(now)) {
            return known;
        }
        Snapshot fresh = read(now);
        snapshot = fresh;
        return fresh;
    }

    private Snapshot read(Instant now) {
        Snapshot snapshot = transactions.execute(status -> {
            // one node rotates at a time; the others wait, then read what it wrote
            jdbc.sql("SELECT pg_advisory_xact_lock(hashtextextended('lti-tool-keys', 0))")
                    .query()
                    .singleRow();
            List<StoredKey> keys = stored();
            StoredKey signing = keys.stream()
                    .filter(key -> key.retiredAt() == null)
                    .findFirst()
                    .orElse(null);
            if (signing == null
                    || !signing.createdAt().plus(settings.keyRotation()).isAfter(now)) {
                signing = rotate(now);
                keys = stored();
            }
            jdbc.sql("DELETE FROM lti_tool_keys WHERE retired_at < :until")
                    .param("until", Sql.at(now.minus(settings.keyOverlap())))
                    .update();
            Instant publishedSince = now.minus(settings.keyOverlap());
            List<JWK> published = keys.stream()
                    .filter(key -> key.retiredAt() == null || key.retiredAt().isAfter(publishedSince))
                    .map(key -> (JWK) key.key().toPublicJWK())
                    .toList();
            return new Snapshot(signing.key(), new JWKSet(published), now);
        });
        if (snapshot == null) {
            throw new IllegalStateException("no tool key");
        }
        return snapshot;
    }

    private record StoredKey(
            RSAKey key, Instant createdAt, @Nullable Instant retiredAt) {}

    /** Newest first. */
    private List<StoredKey> stored() {
        return jdbc.sql("SELECT private_key_sealed, created_at, retired_at FROM lti_tool_keys"
                        + " ORDER BY created_at DESC, kid")
                .query((rs, row) -> new StoredKey(
                        opened(rs.getBytes("private_key_sealed")),
                        Sql.instantNotNull(rs, "created_at"),
                        Sql.instant(rs, "retired_at")))
                .list();
    }

    private StoredKey rotate(Instant now) {
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
        jdbc.sql("UPDATE lti_tool_keys SET retired_at = :now WHERE retired_at IS NULL")
                .param("now", Sql.at(now))
                .update();
        jdbc.sql("INSERT INTO lti_tool_keys (kid, private_key_sealed, created_at) VALUES (:kid, :sealed, :created)")
                .param("kid", key.getKeyID())
                .param("sealed", sealer.seal(key.toJSONString().getBytes(StandardCharsets.UTF_8)))
                .param("created", Sql.at(now))
                .update();
        return new StoredKey(key, now, null);
    }

    private RSAKey opened(byte[] sealed) {
        try {
            return RSAKey.parse(new String(sealer.open(sealed), StandardCharsets.UTF_8));
        } catch (ParseException e) {
            throw new IllegalStateException("A stored tool key is not a JWK", e);
        }
    }
}
