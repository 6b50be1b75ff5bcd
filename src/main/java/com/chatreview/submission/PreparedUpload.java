package com.chatreview.submission;

import com.chatreview.kernel.Sha256;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import org.springframework.core.io.InputStreamSource;

/**
 * An upload that passed every check: names cleaned, sizes and hashes known, content types detected.
 *
 * @param files in the order they were sent
 */
public record PreparedUpload(String studentId, List<PreparedFile> files) {

    public record PreparedFile(
            String fileName, long size, byte[] sha256, String contentType, InputStreamSource content) {

        String sha256Hex() {
            return HexFormat.of().formatHex(sha256);
        }
    }

    /** What makes two uploads the same request: the student, and each file's name and content. */
    public byte[] fingerprint() {
        MessageDigest digest = Sha256.digest();
        digest.update(studentId.getBytes(StandardCharsets.UTF_8));
        for (PreparedFile file : files) {
            digest.update((byte) 0);
            digest.update(file.fileName().getBytes(StandardCharsets.UTF_8));
            digest.update((byte) 0);
            digest.update(file.sha256());
        }
        return digest.digest();
    }
}
