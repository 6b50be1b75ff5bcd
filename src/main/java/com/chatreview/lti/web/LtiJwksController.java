package com.chatreview.lti.web;

import com.chatreview.lti.ToolKeys;
import io.swagger.v3.oas.annotations.Hidden;
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
 * own, until the operator retires it. An unknown registration is a 404 problem.
 */
@Hidden
@RestController
@RequestMapping("/lti")
class LtiJwksController {

    /** As long as a platform may keep a JWKS: a new key is published a day before it signs. */
    private static final CacheControl CACHED =
            CacheControl.maxAge(Duration.ofHours(1)).cachePublic();

    private final ToolKeys keys;

    LtiJwksController(ToolKeys keys) {
        this.keys = keys;
    }

    @GetMapping(path = "/platforms/{platform_id}/jwks", produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<String> ofPlatform(@PathVariable("platform_id") UUID platform) {
        return ResponseEntity.ok()
                .cacheControl(CACHED)
                .body(keys.published(platform).toString());
    }

    @GetMapping(path = "/jwks", produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<String> shared() {
        return ResponseEntity.ok()
                .cacheControl(CACHED)
                .body(keys.sharedPublished().toString());
    }
}
