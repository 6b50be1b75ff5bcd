package com.chatreview.lti.launch;

import com.chatreview.lti.LaunchRefused;
import com.chatreview.redis.Redis;
import com.chatreview.redis.RedisReachability;
import io.lettuce.core.SetArgs;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

/**
 * The logins of a cluster, in Redis: each under its state with the login's timeout, taken with {@code GETDEL} so
 * that one launch alone, on whichever node, gets it.
 */
final class RedisLoginStates implements LoginStates {

    private static final String PREFIX = "crs:lti-login:";

    /** A login as Redis keeps it. */
    record Stored(
            UUID platformId,
            String nonce,
            String targetLinkUri,
            long expiresAt,
            @Nullable String storageTarget,
            @Nullable String storedValueHash) {}

    private final Redis redis;
    private final RedisReachability reachability;
    private final JsonMapper json;

    RedisLoginStates(Redis redis, RedisReachability reachability, JsonMapper json) {
        this.redis = redis;
        this.reachability = reachability;
        this.json = json;
    }

    @Override
    public void put(String state, LoginState login, java.time.Duration timeout) {
        Stored stored = new Stored(
                login.platformId(),
                login.nonce(),
                login.targetLinkUri(),
                login.expiresAt().toEpochMilli(),
                login.storageTarget(),
                login.storedValueHash());
        try {
            redis.commands().set(PREFIX + state, json.writeValueAsString(stored), SetArgs.Builder.px(timeout));
        } catch (RuntimeException e) {
            reachability.failed(e);
            throw unreachable();
        }
    }

    @Override
    public Optional<LoginState> take(String state) {
        String value;
        try {
            value = redis.commands().getdel(PREFIX + state);
        } catch (RuntimeException e) {
            reachability.failed(e);
            throw unreachable();
        }
        if (value == null) {
            return Optional.empty();
        }
        Stored stored = json.readValue(value, Stored.class);
        return Optional.of(new LoginState(
                stored.platformId(),
                stored.nonce(),
                stored.targetLinkUri(),
                Instant.ofEpochMilli(stored.expiresAt()),
                stored.storageTarget(),
                stored.storedValueHash()));
    }

    private static LaunchRefused unreachable() {
        return LaunchRefused.unavailable("The service cannot keep or find logins right now (its Redis is unreachable)."
                + " Launch the tool again from your course in a moment.");
    }
}
