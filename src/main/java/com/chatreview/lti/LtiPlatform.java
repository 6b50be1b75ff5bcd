package com.chatreview.lti;

import com.chatreview.tenancy.TenantId;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.UUID;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * An LMS registered by a tenant: who it is ({@code issuer}, the {@code client_id} it gave the tool, its deployments)
 * and where the tool reaches it.
 */
public record LtiPlatform(
        UUID id,
        TenantId tenantId,
        String issuer,
        String clientId,
        List<String> deploymentIds,
        String authLoginUrl,
        String authTokenUrl,
        String jwksUrl,
        Instant createdAt) {

    /** How the ids of LMS users begin, as the service knows them: {@code lti:{platform id}:{sub}}. */
    public static final String STUDENT_PREFIX = "lti:";

    public LtiPlatform {
        deploymentIds = List.copyOf(deploymentIds);
    }

    /** The origins that may frame the tool's pages for this platform: its issuer's and its registered URLs'. */
    public List<String> frameOrigins() {
        LinkedHashSet<String> origins = new LinkedHashSet<>();
        Stream.of(issuer, authLoginUrl, authTokenUrl, jwksUrl)
                .map(LtiPlatform::originOf)
                .filter(Objects::nonNull)
                .forEach(origins::add);
        return List.copyOf(origins);
    }

    /** The URL's origin, {@code scheme://host[:port]}, as CSP names it; null for what is not an http(s) URL. */
    public static @Nullable String originOf(@Nullable String url) {
        if (url == null) {
            return null;
        }
        try {
            URI uri = new URI(url);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            String host = uri.getHost();
            if (!(scheme.equals("https") || scheme.equals("http"))
                    || host == null
                    || !host.matches("[A-Za-z0-9.:\\[\\]-]+")) {
                return null;
            }
            int port = uri.getPort();
            boolean defaultPort =
                    port < 0 || (scheme.equals("https") && port == 443) || (scheme.equals("http") && port == 80);
            return scheme + "://" + host.toLowerCase(Locale.ROOT) + (defaultPort ? "" : ":" + port);
        } catch (URISyntaxException e) {
            return null;
        }
    }

    /** The {@code studentId} of the platform's user {@code sub}, as homework and submissions know them. */
    public String studentIdOf(String sub) {
        return STUDENT_PREFIX + id + ":" + sub;
    }
}
