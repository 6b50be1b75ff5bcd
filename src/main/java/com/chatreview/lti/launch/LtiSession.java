package com.chatreview.lti.launch;

import java.time.Instant;

/**
 * A verified launch, kept for the tool's pages that follow it: found by its {@code token}, which travels in the
 * pages' forms and links.
 */
public record LtiSession(String token, LtiLaunch launch, Instant expiresAt) {}
