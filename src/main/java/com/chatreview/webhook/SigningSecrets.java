package com.chatreview.webhook;

import com.chatreview.sealing.Sealer;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * The endpoints' signing secrets: made here ({@code whsec_} and the base64 of 32 random bytes, as Standard
 * Webhooks has them), and sealed with the operator's key before they are stored, so that a database dump alone
 * cannot sign a delivery.
 */
final class SigningSecrets {

    private static final String PREFIX = "whsec_";
    private static final int SECRET_BYTES = 32;

    private final SecureRandom random = new SecureRandom();
    private final Sealer sealer;

    SigningSecrets(Sealer sealer) {
        this.sealer = sealer;
    }

    /** A new secret, as the tenant is shown it. */
    String newSecret() {
        byte[] bytes = new byte[SECRET_BYTES];
        random.nextBytes(bytes);
        return PREFIX + Base64.getEncoder().encodeToString(bytes);
    }

    /** The bytes an HMAC is keyed with: the base64 after {@code whsec_}. */
    static byte[] signingKey(String secret) {
        return Base64.getDecoder().decode(secret.substring(PREFIX.length()));
    }

    byte[] seal(String secret) {
        return sealer.seal(secret.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * The secret a stored value seals.
     *
     * @throws IllegalStateException when it was sealed with another key (SEALING_KEY changed)
     */
    String open(byte[] stored) {
        return new String(sealer.open(stored), StandardCharsets.UTF_8);
    }
}
