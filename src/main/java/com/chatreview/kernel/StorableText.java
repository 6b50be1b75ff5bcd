package com.chatreview.kernel;

/**
 * Text that a record can hold: PostgreSQL text and jsonb refuse U+0000, and no UTF-8 carries half of a surrogate
 * pair (the driver writes it as {@code ?}). JSON escapes can spell both; REST bodies and WebSocket frames that do
 * are refused before anything is stored.
 */
public final class StorableText {

    private StorableText() {}

    /**
     * The text with every character {@link #storable} refuses written as its JSON escape ({@code \\u0000},
     * {@code \\uD800}): what a client sent, as an answer can quote it (no UTF-8 can carry the characters themselves).
     */
    public static String printable(String text) {
        if (text == null || storable(text)) {
            return text;
        }
        StringBuilder printable = new StringBuilder(text.length() + 16);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                printable.append(c).append(text.charAt(++i));
            } else if (c == '\u0000' || Character.isSurrogate(c)) {
                printable.append(String.format("\\u%04X", (int) c));
            } else {
                printable.append(c);
            }
        }
        return printable.toString();
    }

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
