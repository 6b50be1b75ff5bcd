package com.chatreview.kernel;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/** SHA-256, which every JDK has: API keys, entity tags, idempotency records and uploads are fingerprinted with it. */
public final class Sha256 {

    private Sha256() {}

    /** A fresh digest, for input that arrives in pieces. */
    public static MessageDigest digest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    public static byte[] of(byte[] bytes) {
        return digest().digest(bytes);
    }

    /** Of the text's UTF-8 bytes. */
    public static byte[] of(String text) {
        return of(text.getBytes(StandardCharsets.UTF_8));
    }
}
