package com.chatreview.lti.launch;

import java.time.Instant;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * What a login left for its launch, under its {@code state}: the platform it was for, the nonce the id_token must
 * carry, the target link the platform named and, when the platform keeps data for the tool (LTI platform storage),
 * its storage frame and the SHA-256 of the value the login page put there (Base64url).
 */
record LoginState(
        UUID platformId,
        String nonce,
        String targetLinkUri,
        Instant expiresAt,
        @Nullable String storageTarget,
        @Nullable String storedValueHash) {}
