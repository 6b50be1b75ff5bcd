package com.chatreview.ratelimit;

import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import org.springframework.stereotype.Service;

/**
 * The quotas of the interface, by name. A tenant's REST quota and an address's failure budget are held by the
 * node's {@link RateLimiter} (across the cluster with Redis); a connection's frames per second by this node alone,
 * where the connection lives.
 */
@Service
public class RequestQuotas {

    private final RateLimiter limiter;
    private final RateLimiter local = new InProcessRateLimiter();
    private final RateLimitSettings settings;

    RequestQuotas(RateLimiter limiter, RateLimitSettings settings) {
        this.limiter = limiter;
        this.settings = settings;
    }

    /** A REST request of a known tenant: refused before anything when its address is past its failures. */
    public sealed interface RestRequest {
        /** The address has failed to authenticate too often: nothing was spent. */
        record Throttled(Duration retryAfter) implements RestRequest {}

        /** The key was revoked (on any node): nothing was spent. */
        record Revoked() implements RestRequest {}

        /** One request of the tenant's minute was spent, or found spent. */
        record Counted(RateLimitDecision decision) implements RestRequest {}
    }

    /**
     * Checks the address's failure budget and whether the key was revoked, and spends one REST request of the
     * tenant's minute, in one step (one round trip to Redis, shared with the tenant's concurrent requests).
     */
    public RestRequest restRequest(String clientAddress, UUID tenantId, UUID apiKeyId) {
        return switch (limiter.tryConsumeGuarded(
                authKey(clientAddress), authQuota(), revokedKey(apiKeyId), restKey(tenantId), restQuota())) {
            case RateLimiter.Guarded.GuardEmpty empty ->
                new RestRequest.Throttled(authenticationRetryAfter(clientAddress));
            case RateLimiter.Guarded.Marked revoked -> new RestRequest.Revoked();
            case RateLimiter.Guarded.Spent spent -> new RestRequest.Counted(spent.decision());
        };
    }

    /**
     * Refuses the key's requests from now on, on every node, for as long as any node may trust it from its cache
     * ({@code duration}): its REST requests are {@link RestRequest.Revoked}.
     */
    public void apiKeyRevoked(UUID apiKeyId, Duration duration) {
        limiter.mark(revokedKey(apiKeyId), duration);
    }

    /** Whether the key was revoked lately on any node. */
    public boolean apiKeyRevoked(UUID apiKeyId) {
        return limiter.marked(revokedKey(apiKeyId));
    }

    /**
     * A REST request with a key the service knows as active, from an address past its failure budget: the budget
     * does not apply (it refuses guesses, not valid keys); the key's revocation and the tenant's quota do.
     */
    public RestRequest restRequestOfKnownKey(UUID tenantId, UUID apiKeyId) {
        if (limiter.marked(revokedKey(apiKeyId))) {
            return new RestRequest.Revoked();
        }
        return new RestRequest.Counted(limiter.tryConsume(restKey(tenantId), restQuota()));
    }

    /** Spends one REST request of the tenant's minute. */
    public RateLimitDecision restRequest(UUID tenantId) {
        return limiter.tryConsume(restKey(tenantId), restQuota());
    }

    /**
     * How long the address must wait before it is heard again, having failed to authenticate too often this minute;
     * nothing when it may be heard.
     */
    public Optional<Duration> authenticationBlocked(String clientAddress) {
        Duration blocked = limiter.exhaustedFor(authKey(clientAddress), authQuota());
        return blocked.isPositive() ? Optional.of(blocked) : Optional.empty();
    }

    /**
     * Spends one look-up from the address's budget of look-ups while it is past its failures; whether there was one.
     */
    public boolean lookUpWhileThrottled(String clientAddress) {
        return limiter.tryConsume(
                        "throttled-lookup:" + ClientNetworks.of(clientAddress),
                        Quota.perMinute(settings.throttledLinkLookupsPerMinute()))
                .allowed();
    }

    /** Counts one failed authentication from the address. */
    public void authenticationFailed(String clientAddress) {
        limiter.tryConsume(authKey(clientAddress), authQuota());
    }

    /** Spends one client frame of the connection's second. */
    public RateLimitDecision webSocketFrame(String connectionId) {
        return local.tryConsume("ws-frame:" + connectionId, Quota.perSecond(settings.wsMessagesPerSecond()));
    }

    public RateLimitSettings settings() {
        return settings;
    }

    private Duration authenticationRetryAfter(String clientAddress) {
        Duration blocked = limiter.exhaustedFor(authKey(clientAddress), authQuota());
        return blocked.isPositive() ? blocked : authQuota().period();
    }

    private Quota restQuota() {
        return Quota.perMinute(settings.restPerMinute());
    }

    private Quota authQuota() {
        return Quota.perMinute(settings.authFailuresPerMinute());
    }

    private static String restKey(UUID tenantId) {
        return "rest:" + tenantId;
    }

    private static String revokedKey(UUID apiKeyId) {
        return "revoked-key:" + apiKeyId;
    }

    private static String authKey(String clientAddress) {
        return "auth-failure:" + ClientNetworks.of(clientAddress);
    }
}
