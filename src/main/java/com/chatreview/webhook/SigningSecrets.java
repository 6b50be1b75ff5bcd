package com.chatreview.webhook;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The endpoints' signing secrets: made here ({@code whsec_} and the base64 of 32 random bytes, as Standard
 * Webhooks has them), and sealed (AES-GCM) with the operator's key before they are stored, so that a database dump
 * alone cannot sign a delivery.
 */
final class SigningSecrets {

    private static final Logger log = LoggerFactory.getLogger(SigningSecrets.class);
    private static final String PREFIX = "whsec_";
    private static final int SECRET_BYTES = 32;
    private static final int IV_BYTES = 12;
    private static final int TAG_BITS = 128;

    private final SecureRandom random = new SecureRandom();
    private final SecretKeySpec key;

    SigningSecrets(WebhookSettings settings) {
        this.key = new SecretKeySpec(keyBytes(settings), "AES");
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
        try {
            byte[] iv = new byte[IV_BYTES];
            random.nextBytes(iv);
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, iv));
            byte[] sealed = cipher.doFinal(secret.getBytes(StandardCharsets.UTF_8));
            byte[] stored = new byte[IV_BYTES + sealed.length];
            System.arraycopy(iv, 0, stored, 0, IV_BYTES);
            System.arraycopy(sealed, 0, stored, IV_BYTES, sealed.length);
            return stored;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Sealing a webhook secret failed", e);
        }
    }

    /**
     * The secret a stored value seals.
     *
     * @throws IllegalStateException when it was sealed with another key (WEBHOOK_SECRET_KEY changed)
     */
    String open(byte[] stored) {
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, stored, 0, IV_BYTES));
            return new String(cipher.doFinal(stored, IV_BYTES, stored.length - IV_BYTES), StandardCharsets.UTF_8);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(
                    "A webhook secret cannot be opened: it was sealed with another WEBHOOK_SECRET_KEY", e);
        }
    }

    private static byte[] keyBytes(WebhookSettings settings) {
        if (settings.secretKey() != null && !settings.secretKey().isBlank()) {
            byte[] bytes;
            try {
                bytes = Base64.getDecoder().decode(settings.secretKey().strip());
            } catch (IllegalArgumentException e) {
                throw new IllegalStateException("WEBHOOK_SECRET_KEY is not base64", e);
            }
            if (bytes.length != 16 && bytes.length != 24 && bytes.length != 32) {
                throw new IllegalStateException(
                        "WEBHOOK_SECRET_KEY must be the base64 of 16, 24 or 32 bytes (openssl rand -base64 32)");
            }
            return bytes;
        }
        return keyOfThisNode(settings.keyFile());
    }

    /** A single node's own key, made at its first start: a cluster sets WEBHOOK_SECRET_KEY on every node instead. */
    private static byte[] keyOfThisNode(Path file) {
        try {
            if (Files.exists(file)) {
                return Base64.getDecoder().decode(Files.readString(file).strip());
            }
            byte[] bytes = new byte[32];
            new SecureRandom().nextBytes(bytes);
            Files.createDirectories(file.toAbsolutePath().getParent());
            Files.writeString(file, Base64.getEncoder().encodeToString(bytes));
            try {
                Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
            } catch (UnsupportedOperationException notPosix) {
                // the file system has no such permissions; the file is as private as its directory
            }
            log.info(
                    "Made the key that seals webhook secrets in {}; a cluster sets WEBHOOK_SECRET_KEY on every node",
                    file);
            return bytes;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read or make the webhook key file " + file, e);
        }
    }
}
