package com.chatreview.lti.keys;

import com.chatreview.lti.LtiPlatform;
import com.chatreview.lti.LtiSettings;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.jwk.source.JWKSourceBuilder;
import com.nimbusds.jose.proc.SecurityContext;
import java.net.MalformedURLException;
import java.net.URI;
import java.time.Duration;

/**
 * Each platform's public keys, from its JWKS URL, through nimbus's caching source: kept for
 * {@link LtiSettings#platformKeysCache()}, fetched again at once when an id_token names a {@code kid} not in the
 * set (a platform that rotated its key), at most twice per {@link LtiSettings#platformKeysRefreshLimit()} so that
 * forged {@code kid}s cannot make the tool hammer the platform.
 */
public final class PlatformKeys {

    private record Source(String jwksUrl) {}

    private final Cache<Source, JWKSource<SecurityContext>> sources = Caffeine.newBuilder()
            .maximumSize(10_000)
            .expireAfterAccess(Duration.ofDays(1))
            .build();
    private final PlatformHttp http;
    private final Duration cacheTime;
    private final Duration refreshLimit;

    PlatformKeys(PlatformHttp http, Duration cacheTime, Duration refreshLimit) {
        this.http = http;
        this.cacheTime = cacheTime;
        this.refreshLimit = refreshLimit;
    }

    public JWKSource<SecurityContext> of(LtiPlatform platform) {
        return sources.get(new Source(platform.jwksUrl()), source -> {
            try {
                return JWKSourceBuilder.<SecurityContext>create(
                                URI.create(source.jwksUrl()).toURL(), http)
                        .cache(cacheTime.toMillis(), http.timeout().toMillis())
                        .refreshAheadCache(false)
                        .rateLimited(refreshLimit.toMillis())
                        .retrying(false)
                        .outageTolerant(false)
                        .build();
            } catch (MalformedURLException e) {
                throw new IllegalStateException("A registered jwks_url is not a URL: " + source.jwksUrl(), e);
            }
        });
    }
}
