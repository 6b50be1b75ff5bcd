package com.chatreview.lti;

import com.chatreview.ratelimit.Quota;
import com.chatreview.ratelimit.RateLimitDecision;
import com.chatreview.ratelimit.RateLimiter;

/**
 * Logins and launches answer anyone (they need no key), and each login keeps a state for minutes: one client
 * address may make {@link LtiSettings#requestsPerAddress()} of them a minute, across the cluster with Redis, so
 * that no one fills the logins store or spends the platforms' keys fetches for everyone.
 */
public class LaunchAdmission {

    private final RateLimiter limiter;
    private final Quota quota;

    LaunchAdmission(RateLimiter limiter, LtiSettings settings) {
        this.limiter = limiter;
        this.quota = Quota.perMinute(settings.requestsPerAddress());
    }

    /**
     * Spends one request of the address's minute.
     *
     * @throws LaunchRefused (too many) when the address spent its minute
     */
    public void admit(String clientAddress) {
        RateLimitDecision decision = limiter.tryConsume("lti:" + clientAddress, quota);
        if (!decision.allowed()) {
            throw LaunchRefused.tooMany(decision.retryAfter());
        }
    }
}
