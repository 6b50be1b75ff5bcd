/**
 * The service as an LTI 1.3 tool (docs/lti.md): the LMS platforms a tenant registers, the tool's signing keys and
 * JWKS, and the launch (OIDC third-party-initiated login, then the platform's {@code id_token} checked against its
 * JWKS), with state and nonce kept server-side so that no cookie is needed in the LMS's iframe.
 */
@org.jspecify.annotations.NullMarked
@org.springframework.modulith.ApplicationModule(displayName = "LTI 1.3 tool")
package com.chatreview.lti;
