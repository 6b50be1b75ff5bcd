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

        /** One request of the tenant's minute was spent, or found spent. */
        record Counted(RateLimitDecision decision) implements RestRequest {}
    }

    /**
     * Checks the address's failure budget and spends one REST request of the tenant's minute, in one step (one round
     * trip to Redis).
     */
    public RestRequest restRequest(String clientAddress, UUID tenantId) {
        RateLimitDecision decision =
                limiter.tryConsumeUnlessExhausted(authKey(clientAddress), authQuota(), restKey(tenantId), restQuota());
        return decision == null
                ? new RestRequest.Throttled(authenticationRetryAfter(clientAddress))
                : new RestRequest.Counted(decision);
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

    private static String authKey(String clientAddress) {
        return "auth-failure:" + clientAddress;
    }
}
