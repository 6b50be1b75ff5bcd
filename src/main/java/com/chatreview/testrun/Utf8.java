package com.chatreview.testrun;

import java.nio.charset.StandardCharsets;

/** Text cut to a number of bytes of UTF-8, never inside a character. */
final class Utf8 {

    private Utf8() {}

    static String cut(String text, int maxBytes) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        if (bytes.length <= maxBytes) {
            return text;
        }
        int end = maxBytes;
        // back off continuation bytes (10xxxxxx) so the cut falls before a character's first byte
        while (end > 0 && (bytes[end] & 0xC0) == 0x80) {
            end--;
        }
        return new String(bytes, 0, end, StandardCharsets.UTF_8);
    }
}
