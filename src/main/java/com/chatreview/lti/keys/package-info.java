/** The tool's side of trust with a platform: its own signing keys and JWKS, the platform's JWKS, the access tokens
 * a platform grants for its services, and the one HTTP client through which all of them reach a platform. */
@org.jspecify.annotations.NullMarked
package com.chatreview.lti.keys;
