package com.chatreview.lti.launch;

import com.chatreview.kernel.Sha256;
import com.chatreview.lti.LaunchRefused;
import com.chatreview.lti.LtiSettings;
import com.chatreview.lti.deeplinking.LtiDeepLinking;
import com.chatreview.ratelimit.ClientNetworks;
import com.chatreview.ratelimit.Quota;
import com.chatreview.ratelimit.RateLimitDecision;
import com.chatreview.ratelimit.RateLimiter;
import com.chatreview.ratelimit.RequestQuotas;
import java.time.Duration;
import java.util.Base64;
import java.util.Objects;
import org.springframework.stereotype.Component;

/**
 * What the tool's endpoints may take. They need no API key, so each request is charged to what it comes from,
 * across the cluster with Redis, before anything of its body is read (docs/lti.md, Limits):
 *
 * <ul>
 *   <li>a login or a launch that fails, to its client address: an address that failed too often this minute is
 *       refused before anything is checked (a refused launch may have fetched a platform's keys). A school's
 *       students often share one address, so the ones that succeed spend nothing: a class launching together never
 *       locks itself out;
 *   <li>a login, also to a large allowance of its address's logins, however they end: each keeps a state for
 *       minutes, so no one address fills the logins store for everyone;
 *   <li>a page of a session (the picker, the homework page), to the session: only a verified launch opens one;
 *   <li>a hand-in, also to the learner's hand-ins of that homework in an hour, and to the tenant's REST quota, as a
 *       request of the upload endpoint is: files handed in through the LMS cost the school what uploads do.
 * </ul>
 */
@Component
public class LtiRequestLimits {

    private final RateLimiter limiter;
    private final RequestQuotas quotas;
    private final Quota failuresPerAddress;
    private final Quota loginsPerAddress;
    private final Quota perSession;
    private final Quota handInsPerLearner;

    LtiRequestLimits(RateLimiter limiter, RequestQuotas quotas, LtiSettings settings) {
        this.limiter = limiter;
        this.quotas = quotas;
        this.failuresPerAddress = Quota.perMinute(settings.failuresPerAddress());
        this.loginsPerAddress = Quota.perMinute(settings.loginsPerAddress());
        this.perSession = Quota.perMinute(settings.requestsPerSession());
        this.handInsPerLearner = new Quota(settings.handInsPerLearner(), Duration.ofHours(1));
    }

    /**
     * Admits a login or launch unless the address failed too often this minute; spends nothing.
     *
     * @throws LaunchRefused (too many) when the address spent its minute's failures
     */
    public void address(String clientAddress) {
        Duration blocked = limiter.exhaustedFor(failuresKey(clientAddress), failuresPerAddress);
        if (blocked.isPositive()) {
            throw LaunchRefused.tooMany(
                    "Too many launches from your network failed in the last minute. Wait " + seconds(blocked)
                            + " seconds, then launch the tool again from your course.",
                    blocked);
        }
    }

    /**
     * Admits a login as {@link #address} does, and spends one of the address's logins of the minute.
     *
     * @throws LaunchRefused (too many) when the address spent its failures, or its logins
     */
    public void login(String clientAddress) {
        address(clientAddress);
        RateLimitDecision decision =
                limiter.tryConsume("lti-login:" + ClientNetworks.of(clientAddress), loginsPerAddress);
        if (!decision.allowed()) {
            throw LaunchRefused.tooMany(
                    "Too many launches came from your network in the last minute. Wait "
                            + seconds(decision.retryAfter()) + " seconds, then launch the tool again from your course.",
                    decision.retryAfter());
        }
    }

    /** A login or launch from the address was refused: one of its failures of the minute. */
    public void failed(String clientAddress) {
        limiter.tryConsume(failuresKey(clientAddress), failuresPerAddress);
    }

    private static String failuresKey(String clientAddress) {
        return "lti:" + ClientNetworks.of(clientAddress);
    }

    /**
     * Spends one request of the session's minute.
     *
     * @throws LaunchRefused (too many) when the session spent its minute
     */
    public void session(LtiSession session) {
        RateLimitDecision decision = limiter.tryConsume("lti-session:" + digest(session.token()), perSession);
        if (!decision.allowed()) {
            throw LaunchRefused.tooMany(
                    "This page made too many requests in the last minute. Wait " + seconds(decision.retryAfter())
                            + " seconds, then reload it.",
                    decision.retryAfter());
        }
    }

    /**
     * Spends one hand-in of the learner's hour for the session's homework, then one request of the tenant's REST
     * minute.
     *
     * @throws LaunchRefused (too many) when either is spent
     */
    public void handIn(LtiSession session) {
        LtiLaunch launch = session.launch();
        String homework = Objects.requireNonNullElse(launch.custom().get(LtiDeepLinking.HOMEWORK_PARAMETER), "");
        // the learner's id is personal data: the key holds a digest of it
        RateLimitDecision learner = limiter.tryConsume(
                "lti-hand-in:"
                        + digest(launch.platform().tenantId().value() + "\n" + launch.studentId() + "\n" + homework),
                handInsPerLearner);
        if (!learner.allowed()) {
            throw LaunchRefused.tooMany(
                    "You handed in this homework " + handInsPerLearner.requests() + " times in the last hour, as"
                            + " many as the tool takes. Wait " + minutes(learner.retryAfter())
                            + " minutes, then hand in again.",
                    learner.retryAfter());
        }
        RateLimitDecision tenant =
                quotas.restRequest(launch.platform().tenantId().value());
        if (!tenant.allowed()) {
            throw LaunchRefused.tooMany(
                    "Your school's use of the service is at its limit for this minute. Wait "
                            + seconds(tenant.retryAfter()) + " seconds, then hand in again.",
                    tenant.retryAfter());
        }
    }

    private static String digest(String text) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(Sha256.of(text));
    }

    private static long seconds(Duration wait) {
        return Math.max(1, RateLimitDecision.seconds(wait));
    }

    private static long minutes(Duration wait) {
        return Math.max(1, (seconds(wait) + 59) / 60);
    }
}
