/** The launch: OIDC third-party-initiated login, the platform's {@code id_token} checked against its JWKS, the
 * state and nonce kept server-side, and the session a launch opens (no cookie in the LMS's iframe). */
@org.jspecify.annotations.NullMarked
package com.chatreview.lti.launch;
