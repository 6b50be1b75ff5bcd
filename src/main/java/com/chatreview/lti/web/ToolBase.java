package com.chatreview.lti.web;

import com.chatreview.lti.LaunchRefused;
import com.chatreview.lti.LtiSettings;
import java.util.Optional;
import org.springframework.web.servlet.support.ServletUriComponentsBuilder;

/**
 * Where platforms and browsers reach the service, for the tool's URLs (launch, login, JWKS, registration links):
 * {@code PUBLIC_URL}, else the request's own base when its {@code Host} is one of {@code ALLOWED_HOSTS}; else unknown.
 * A {@code Host} header never puts another site in a URL the tool gives a platform.
 */
final class ToolBase {

    private ToolBase() {}

    static Optional<String> of(LtiSettings settings) {
        String configured = settings.publicUrl();
        if (configured != null && !configured.isBlank()) {
            String base = configured.strip();
            return Optional.of(base.endsWith("/") ? base.substring(0, base.length() - 1) : base);
        }
        var request = ServletUriComponentsBuilder.fromCurrentContextPath();
        String host = request.build().getHost();
        boolean allowed = host != null
                && settings.allowedHosts().stream().map(String::strip).anyMatch(host::equalsIgnoreCase);
        return allowed ? Optional.of(request.toUriString()) : Optional.empty();
    }

    /** For what goes to a platform, which needs the whole URL: unknown is the operator's to mend. */
    static String required(LtiSettings settings) {
        return of(settings)
                .orElseThrow(() -> LaunchRefused.unavailable("The service does not know the address it is reached at:"
                        + " PUBLIC_URL is not set, and this request names a host that is not one of ALLOWED_HOSTS."
                        + " The service's operator sets PUBLIC_URL."));
    }

    /** For an answer to the tenant: the whole URL when known, else the path alone (as the chat page's links are). */
    static String orRelative(LtiSettings settings) {
        return of(settings).orElse("");
    }
}
