package com.chatreview.sealing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Seals a secret before it is stored (AES-GCM with the operator's key: a random 12-byte nonce, then the ciphertext
 * and its tag), and opens it again. What is sealed cannot be read or changed without the key.
 */
@Component
public class Sealer {

    private static final Logger log = LoggerFactory.getLogger(Sealer.class);
    private static final int IV_BYTES = 12;
    private static final int TAG_BITS = 128;
    private static final int KEY_BYTES = 32;

    /** How many bytes sealing adds to a secret: the nonce and the tag. */
    public static final int OVERHEAD = IV_BYTES + TAG_BITS / 8;

    private final SecureRandom random = new SecureRandom();
    private final SecretKeySpec key;

    Sealer(SealingSettings settings) {
        this.key = new SecretKeySpec(keyBytes(settings), "AES");
    }

    public byte[] seal(byte[] secret) {
        try {
            byte[] iv = new byte[IV_BYTES];
            random.nextBytes(iv);
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, iv));
            byte[] sealed = cipher.doFinal(secret);
            byte[] stored = new byte[IV_BYTES + sealed.length];
            System.arraycopy(iv, 0, stored, 0, IV_BYTES);
            System.arraycopy(sealed, 0, stored, IV_BYTES, sealed.length);
            return stored;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Sealing a secret failed", e);
        }
    }

    /**
     * The secret a stored value seals.
     *
     * @throws IllegalStateException when it was sealed with another key (the operator changed it)
     */
    public byte[] open(byte[] stored) {
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, stored, 0, IV_BYTES));
            return cipher.doFinal(stored, IV_BYTES, stored.length - IV_BYTES);
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw new IllegalStateException(
                    "A stored secret cannot be opened: it was sealed with another SEALING_KEY", e);
        }
    }

    private static byte[] keyBytes(SealingSettings settings) {
        if (settings.key() != null && !settings.key().isBlank()) {
            byte[] bytes;
            try {
                bytes = Base64.getDecoder().decode(settings.key().strip());
            } catch (IllegalArgumentException e) {
                throw new IllegalStateException("SEALING_KEY is not base64", e);
            }
            if (bytes.length != 16 && bytes.length != 24 && bytes.length != 32) {
                throw new IllegalStateException(
                        "SEALING_KEY must be the base64 of 16, 24 or 32 bytes (openssl rand -base64 32)");
            }
            return bytes;
        }
        return keyOfThisNode(settings.keyFile());
    }

    /**
     * A single node's own key, made at its first start: a cluster sets SEALING_KEY on every node instead. The file
     * is created readable by its owner only, before the key is written into it: at no moment can another user read
     * it.
     */
    private static byte[] keyOfThisNode(Path file) {
        try {
            if (Files.exists(file)) {
                return Base64.getDecoder().decode(Files.readString(file).strip());
            }
            byte[] bytes = new byte[KEY_BYTES];
            new SecureRandom().nextBytes(bytes);
            Files.createDirectories(file.toAbsolutePath().getParent());
            try {
                createOwnerOnly(file);
            } catch (FileAlreadyExistsException madeMeanwhile) {
                return Base64.getDecoder().decode(Files.readString(file).strip());
            }
            Files.writeString(
                    file,
                    Base64.getEncoder().encodeToString(bytes),
                    StandardCharsets.US_ASCII,
                    StandardOpenOption.TRUNCATE_EXISTING);
            log.info("Made the key that seals stored secrets in {}; a cluster sets SEALING_KEY on every node", file);
            return bytes;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read or make the sealing key file " + file, e);
        }
    }

    private static void createOwnerOnly(Path file) throws IOException {
        FileAttribute<?> ownerOnly = PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"));
        try {
            Files.createFile(file, ownerOnly);
        } catch (UnsupportedOperationException notPosix) {
            // the file system has no such permissions; the file is as private as its directory
            Files.createFile(file);
        }
    }
}
