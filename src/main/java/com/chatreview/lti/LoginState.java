package com.chatreview.lti;

import java.time.Instant;
import java.util.UUID;

/**
 * What a login left for its launch, under its {@code state}: the platform it was for, the nonce the id_token must
 * carry, and the target link the platform named.
 */
record LoginState(UUID platformId, String nonce, String targetLinkUri, Instant expiresAt) {}
