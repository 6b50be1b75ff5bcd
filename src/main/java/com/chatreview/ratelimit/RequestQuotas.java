package com.chatreview.ratelimit;

import java.time.Duration;
import java.util.UUID;
import org.springframework.stereotype.Service;

/** The quotas of the interface, by name, over whichever {@link RateLimiter} the node runs. */
@Service
public class RequestQuotas {

    private final RateLimiter limiter;
    private final RateLimitSettings settings;

    RequestQuotas(RateLimiter limiter, RateLimitSettings settings) {
        this.limiter = limiter;
        this.settings = settings;
    }

    /** Spends one REST request of the tenant's minute. */
    public RateLimitDecision restRequest(UUID tenantId) {
        return limiter.tryConsume("rest:" + tenantId, Quota.perMinute(settings.restPerMinute()));
    }

    /** Whether the address has failed to authenticate too often this minute to be heard at all. */
    public boolean authenticationBlocked(String clientAddress) {
        return limiter.isExhausted(authKey(clientAddress), authQuota());
    }

    /** How long an address past its failures waits: the rest of the quota's minute at most. */
    public Duration authenticationRetryAfter() {
        return Duration.ofMinutes(1);
    }

    /** Counts one failed authentication from the address. */
    public void authenticationFailed(String clientAddress) {
        limiter.tryConsume(authKey(clientAddress), authQuota());
    }

    /** Spends one client frame of the connection's second. */
    public RateLimitDecision webSocketFrame(String connectionId) {
        return limiter.tryConsume("ws-frame:" + connectionId, Quota.perSecond(settings.wsMessagesPerSecond()));
    }

    public RateLimitSettings settings() {
        return settings;
    }

    private Quota authQuota() {
        return Quota.perMinute(settings.authFailuresPerMinute());
    }

    private static String authKey(String clientAddress) {
        return "auth-failure:" + clientAddress;
    }
}
