package com.chatreview.kernel;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/** SHA-256, which every JDK has: API keys, entity tags, idempotency records and uploads are fingerprinted with it. */
public final class Sha256 {

    /**
     * Copied for each digest: a copy costs less than {@code MessageDigest.getInstance}, which looks the algorithm up
     * among the security providers every time (a few per cent of a get-chat's CPU, for its entity tag).
     */
    private static final MessageDigest PROTOTYPE = newDigest();

    private Sha256() {}

    /** A fresh digest, for input that arrives in pieces. */
    public static MessageDigest digest() {
        try {
            return (MessageDigest) PROTOTYPE.clone();
        } catch (CloneNotSupportedException e) {
            return newDigest(); // not with the JDK's own provider, whose SHA-256 is cloneable
        }
    }

    private static MessageDigest newDigest() {
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
