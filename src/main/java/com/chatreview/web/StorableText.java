package com.chatreview.web;

/**
 * Text that a record can hold: PostgreSQL text and jsonb refuse U+0000, and no UTF-8 carries half of a surrogate
 * pair (the driver writes it as {@code ?}). JSON escapes can spell both; REST bodies and WebSocket frames that do
 * are refused before anything is stored.
 */
public final class StorableText {

    private StorableText() {}

    /** Whether the text holds no U+0000 and every surrogate is half of a pair. */
    public static boolean storable(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\u0000') {
                return false;
            }
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return false;
            }
        }
        return true;
    }
}
