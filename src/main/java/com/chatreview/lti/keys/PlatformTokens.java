package com.chatreview.lti.keys;

import com.chatreview.lti.LtiPlatform;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Access tokens of the platforms' grade services: OAuth 2 client credentials with a JWT assertion signed by the
 * tool's key for that registration alone ({@code iss} and {@code sub} the client id, {@code aud} the platform's token endpoint, a fresh
 * {@code jti}), cached per platform until shortly before they expire. A token the platform refused (401) is dropped,
 * so that the next request gets a fresh one. What a platform answered is never kept or shown, only its status: a
 * remote body could carry anything, a token included.
 */
@Component
public class PlatformTokens {

    public static final String SCORE_SCOPE = "https://purl.imsglobal.org/spec/lti-ags/scope/score";
    public static final String LINE_ITEM_SCOPE = "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem";
    private static final String JWT_BEARER = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";
    private static final Duration ASSERTION_LIFETIME = Duration.ofMinutes(5);
    /** A token is not used in its last seconds: a request must not reach the platform after it expired. */
    private static final Duration EARLY = Duration.ofSeconds(30);

    /** A platform's token endpoint answered, but with no token. */
    public static final class TokenRefused extends IOException {
        TokenRefused(String message) {
            super(message);
        }
    }

    private record Held(String token, Instant expiresAt) {}

    private record Key(UUID platform, String scope) {}

    private final PlatformHttp http;
    private final ToolKeys keys;
    private final JsonMapper json;
    private final Clock clock;
    private final Cache<Key, Held> tokens =
            Caffeine.newBuilder().maximumSize(10_000).build();

    PlatformTokens(PlatformHttp http, ToolKeys keys, JsonMapper json, Clock clock) {
        this.http = http;
        this.keys = keys;
        this.json = json;
        this.clock = clock;
    }

    /** A token of the platform's for posting scores: the cached one, or a new one. */
    public String scoreToken(LtiPlatform platform) throws IOException {
        return token(platform, SCORE_SCOPE);
    }

    /** A token of the platform's with this scope: the cached one, or a new one. */
    public String token(LtiPlatform platform, String scope) throws IOException {
        Key key = new Key(platform.id(), scope);
        Held held = tokens.getIfPresent(key);
        Instant now = clock.instant();
        if (held != null && held.expiresAt().isAfter(now.plus(EARLY))) {
            return held.token();
        }
        Held fresh = fetch(platform, scope, now);
        tokens.put(key, fresh);
        return fresh.token();
    }

    /** The platform refused this token: the next request gets a new one. */
    public void refused(LtiPlatform platform, String token) {
        tokens.asMap()
                .entrySet()
                .removeIf(held -> held.getKey().platform().equals(platform.id())
                        && held.getValue().token().equals(token));
    }

    private Held fetch(LtiPlatform platform, String scope, Instant now) throws IOException {
        Map<String, String> form = Map.of(
                "grant_type",
                "client_credentials",
                "client_assertion_type",
                JWT_BEARER,
                "client_assertion",
                assertion(platform, now),
                "scope",
                scope);
        PlatformHttp.Answer answer = http.post(
                URI.create(platform.authTokenUrl()),
                "application/x-www-form-urlencoded",
                form.entrySet().stream()
                        .map(field ->
                                field.getKey() + "=" + URLEncoder.encode(field.getValue(), StandardCharsets.UTF_8))
                        .collect(Collectors.joining("&")),
                Map.of("Accept", "application/json"));
        if (answer.status() != 200) {
            throw new TokenRefused("the token endpoint answered " + answer.status());
        }
        JsonNode body;
        try {
            body = json.readTree(answer.body());
        } catch (RuntimeException e) {
            throw new TokenRefused("the token endpoint's answer is not JSON");
        }
        JsonNode token = body.get("access_token");
        if (token == null || !token.isString() || token.asString().isEmpty()) {
            throw new TokenRefused("the token endpoint's answer has no access_token");
        }
        JsonNode expiresIn = body.get("expires_in");
        long seconds = expiresIn != null && expiresIn.canConvertToLong() ? expiresIn.asLong() : 3600;
        return new Held(token.asString(), now.plusSeconds(Math.max(0, seconds)));
    }

    private String assertion(LtiPlatform platform, Instant now) {
        RSAKey key = keys.signingKey(platform.id());
        SignedJWT jwt = new SignedJWT(
                new JWSHeader.Builder(JWSAlgorithm.RS256)
                        .keyID(key.getKeyID())
                        .type(JOSEObjectType.JWT)
                        .build(),
                new JWTClaimsSet.Builder()
                        .issuer(platform.clientId())
                        .subject(platform.clientId())
                        .audience(platform.authTokenUrl())
                        .issueTime(Date.from(now))
                        .expirationTime(Date.from(now.plus(ASSERTION_LIFETIME)))
                        .jwtID(UUID.randomUUID().toString())
                        .build());
        try {
            jwt.sign(new RSASSASigner(key));
        } catch (JOSEException e) {
            throw new IllegalStateException("Signing a client assertion failed", e);
        }
        return jwt.serialize();
    }
}
