/**
 * The service as an LTI 1.3 tool (docs/lti.md). The root holds what every part shares (the settings, the errors, a
 * registered {@link com.chatreview.lti.LtiPlatform}, and the erasure of the module's tables); each job has its own
 * sub-package: {@code platforms} (registration, by hand and dynamic), {@code keys} (the tool's keys and JWKS, the
 * platforms' JWKS, service tokens, the HTTP to a platform), {@code launch} (login, the {@code id_token}, sessions),
 * {@code deeplinking}, {@code course} (the learner's page, the teacher's class), {@code grades} (line items, the score
 * outbox and its delivery) and {@code web} (the HTTP adapters).
 */
@org.jspecify.annotations.NullMarked
@org.springframework.modulith.ApplicationModule(displayName = "LTI 1.3 tool")
package com.chatreview.lti;
