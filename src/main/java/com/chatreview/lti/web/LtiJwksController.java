package com.chatreview.lti.web;

import com.chatreview.lti.LtiErrors.PlatformNotFound;
import com.chatreview.lti.keys.ToolKeys;
import com.chatreview.ratelimit.RateLimited;
import com.chatreview.tenancy.Authenticator;
import io.swagger.v3.oas.annotations.Hidden;
import jakarta.servlet.http.HttpServletRequest;
import java.time.Duration;
import java.util.UUID;
import org.springframework.http.CacheControl;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The tool's public keys, which LMSes fetch with no API key (docs/lti.md, The tool's keys): each registration's at
 * its own URL, the one its LMS is given; and {@code /lti/jwks}, the keys of registrations made before each had its
 * own, until the operator retires it. An unknown registration is a 404 problem and one of the address's failures,
 * as a guessed key is: an address past its failure budget is served only the keys this node read lately.
 */
@Hidden
@RestController
@RequestMapping("/lti")
class LtiJwksController {

    /** As long as a platform may keep a JWKS: a new key is published a day before it signs. */
    private static final CacheControl CACHED =
            CacheControl.maxAge(Duration.ofHours(1)).cachePublic();

    private final ToolKeys keys;
    private final Authenticator authenticator;

    LtiJwksController(ToolKeys keys, Authenticator authenticator) {
        this.keys = keys;
        this.authenticator = authenticator;
    }

    @GetMapping(path = "/platforms/{platform_id}/jwks", produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<String> ofPlatform(@PathVariable("platform_id") UUID platform, HttpServletRequest request) {
        String address = request.getRemoteAddr();
        Duration wait = authenticator.throttled(address);
        if (wait != null && !keys.knows(platform)) {
            throw new RateLimited(
                    "Too many requests for registrations that do not exist from this address in the last minute",
                    "Wait a minute, then fetch the JWKS URL the registration gave (its tool_jwks_url).",
                    wait.toSeconds());
        }
        try {
            return ResponseEntity.ok()
                    .cacheControl(CACHED)
                    .body(keys.published(platform).toString());
        } catch (PlatformNotFound unknown) {
            authenticator.failed(address);
            throw unknown;
        }
    }

    @GetMapping(path = "/jwks", produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<String> shared() {
        return ResponseEntity.ok()
                .cacheControl(CACHED)
                .body(keys.sharedPublished().toString());
    }
}
