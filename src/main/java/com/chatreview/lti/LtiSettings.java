package com.chatreview.lti;

import com.chatreview.outbound.Destinations;
import java.time.Duration;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The LTI tool, as the operator runs it (docs/lti.md).
 *
 * @param allowHttp a platform's URLs may be plain {@code http} ({@code LTI_ALLOW_HTTP}); otherwise {@code https} only
 * @param allowPrivateNetworks a platform's URLs may resolve to addresses that are not globally reachable
 *     ({@code LTI_ALLOW_PRIVATE_NETWORKS}): a test platform on loopback
 * @param publicUrl where platforms and browsers reach the service ({@code PUBLIC_URL}): the tool's URLs (the launch
 *     URL sent as {@code redirect_uri}) are made from it; without it, from the request's own base
 * @param clockSkew how far a platform's clock may be off: an {@code id_token} is accepted this long after its
 *     {@code exp}, and with an {@code iat} this far ahead
 * @param loginTimeout how long a login's state and nonce wait for the platform's answer: the launch must come back
 *     within it, once
 * @param pendingLogins at most this many logins wait on one node without Redis (past it, some are dropped)
 * @param keyRotation the tool's signing key is replaced when it is this old
 * @param keyActivation a new key is published this long before it signs, so that platforms that cached the JWKS
 *     (an hour at most, as it is served) have it before anything is signed with it
 * @param keyOverlap a replaced key stays published this long, for platforms that cached the JWKS
 * @param failuresPerAddress the failed logins and launches (refused: a forged, replayed or broken one) one client
 *     address may make in a minute; past it the address is refused until its minute has room again. Logins and
 *     launches that succeed spend nothing of it: a class behind a school's one address launches together
 * @param loginsPerAddress the logins one client address may start in a minute, however they end: each keeps a state
 *     for minutes, so that no one address fills the store of logins (far above what a school launches)
 * @param requestsPerSession the requests one session of the tool's pages (a launch's picker or homework page) may make
 *     in a minute
 * @param handInsPerLearner how many times a learner may hand in one homework from its page in an hour
 * @param sessionLifetime how long the tool's pages in the LMS go on working after a launch
 * @param platformKeysCache how long a platform's JWKS is kept before it is fetched again (an unknown {@code kid}
 *     fetches it at once)
 * @param platformKeysRefreshLimit a platform's JWKS is fetched at most twice in this time, however many unknown
 *     {@code kid}s come: past it, an id_token with an unknown {@code kid} is refused without a fetch
 * @param maxPlatformsPerTenant how many platforms a tenant may register
 * @param scorePoll how often each node looks for scores to send to the platforms (new ones are sent at once)
 * @param scoreFirstRetry how long a score the platform could not take waits before it is sent again; each later wait
 *     is twice as long
 * @param scoreMaxRetry the longest wait between two sends of a score
 * @param scoreGiveUpAfter a score the platform has not taken this long after it was written is given up
 * @param scoreLease how long a node that took a score to send has it to itself: longer than a token's fetch and the
 *     score's post take ({@code platformTimeout} each at most); past it, a node that died while sending leaves it to
 *     another
 * @param scoreRetention how long a score delivered or given up is kept (its tenant sees given-up ones and may send
 *     them again) before it is deleted
 * @param sharedJwks {@code /lti/jwks} still publishes the keys of the registrations made before each had keys of its
 *     own ({@code LTI_SHARED_JWKS}); {@code false} once every such LMS was given its registration's own JWKS URL
 *     (docs/lti.md, The tool's keys)
 * @param platformTimeout how long the tool waits for a platform's answer (a token, a score, a column, its JWKS), 1 s
 *     to 60 s; connecting may take at most 5 s of it
 * @param allowedHosts without {@code PUBLIC_URL}, the hosts a request's {@code Host} may name for the tool's URLs
 *     made from it ({@code ALLOWED_HOSTS}, as for the chat page's links); any other host never appears in them
 */
@ConfigurationProperties("lti")
public record LtiSettings(
        @DefaultValue("false") boolean allowHttp,
        @DefaultValue("false") boolean allowPrivateNetworks,
        @Nullable String publicUrl,
        @DefaultValue("30s") Duration clockSkew,
        @DefaultValue("5m") Duration loginTimeout,
        @DefaultValue("100000") int pendingLogins,
        @DefaultValue("90d") Duration keyRotation,
        @DefaultValue("1d") Duration keyActivation,
        @DefaultValue("7d") Duration keyOverlap,
        @DefaultValue("1h") Duration platformKeysCache,
        @DefaultValue("30s") Duration platformKeysRefreshLimit,
        @DefaultValue("50") int maxPlatformsPerTenant,
        @DefaultValue("300") int failuresPerAddress,
        @DefaultValue("3000") int loginsPerAddress,
        @DefaultValue("60") int requestsPerSession,
        @DefaultValue("20") int handInsPerLearner,
        @DefaultValue("1h") Duration sessionLifetime,
        @DefaultValue("1s") Duration scorePoll,
        @DefaultValue("5s") Duration scoreFirstRetry,
        @DefaultValue("1h") Duration scoreMaxRetry,
        @DefaultValue("3d") Duration scoreGiveUpAfter,
        @DefaultValue("60s") Duration scoreLease,
        @DefaultValue("30d") Duration scoreRetention,
        @DefaultValue("true") boolean sharedJwks,
        @DefaultValue("localhost,127.0.0.1") List<String> allowedHosts,
        @DefaultValue("10s") Duration platformTimeout) {

    public LtiSettings {
        if (platformTimeout.compareTo(Duration.ofSeconds(1)) < 0
                || platformTimeout.compareTo(Duration.ofSeconds(60)) > 0) {
            throw new IllegalArgumentException("lti.platform-timeout must be 1s to 60s, not " + platformTimeout);
        }
    }

    /** Where a platform's URLs may point, as these settings allow. */
    public Destinations.Policy destinationPolicy() {
        return new Destinations.Policy(
                allowHttp,
                allowPrivateNetworks,
                "LTI_ALLOW_HTTP",
                "LTI_ALLOW_PRIVATE_NETWORKS",
                "https://lms.example.org/mod/lti/auth.php");
    }
}
