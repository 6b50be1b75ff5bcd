package com.chatreview.web;

import com.chatreview.kernel.Sha256;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;

/**
 * Strong entity tags for conditional GETs (decisions: "Conditional reads"): the same parts, the same tag; a
 * different part, a different tag (the first 16 hex digits of SHA-256 over the parts).
 */
public final class EntityTags {

    private EntityTags() {}

    /** A quoted tag, as the {@code ETag} header carries it. */
    public static String of(Object... parts) {
        MessageDigest digest = Sha256.digest();
        for (Object part : parts) {
            digest.update(String.valueOf(part).getBytes(StandardCharsets.UTF_8));
            digest.update((byte) 0);
        }
        return "\"" + HexFormat.of().formatHex(digest.digest(), 0, 8) + "\"";
    }
}
