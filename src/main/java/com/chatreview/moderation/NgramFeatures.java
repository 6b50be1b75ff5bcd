package com.chatreview.moderation;

import java.util.Arrays;

/**
 * What the learned screener reads of a text ({@link LearnedModel}): its character 3- to 5-grams, its words and its
 * pairs of neighbouring words, each hashed to one of {@code 2^bits} slots, every slot once. The text is read as the
 * rules read it ({@link OfflineScreener#normalized}), with punctuation made space. Public for the trainer in
 * bench/moderation, which must read training messages exactly as the service reads students'.
 */
public final class NgramFeatures {

    private static final int CHARACTERS = 0x100;
    private static final int WORD = 0x200;
    private static final int PAIR = 0x300;

    private NgramFeatures() {}

    /** The distinct slots of a text, sorted. */
    public static int[] of(String text, int bits) {
        return ofNormalized(OfflineScreener.normalized(text), bits);
    }

    static int[] ofNormalized(String normalized, int bits) {
        char[] clean = cleaned(normalized);
        int mask = (1 << bits) - 1;
        int[] slots = new int[clean.length * 3 + clean.length * 2 + 4];
        int count = 0;
        for (int n = 3; n <= 5; n++) {
            for (int start = 0; start + n <= clean.length; start++) {
                slots[count++] = mix(hash(CHARACTERS + n, clean, start, start + n)) & mask;
            }
        }
        int previousStart = -1;
        int start = 1;
        for (int i = 1; i < clean.length; i++) {
            if (clean[i] != ' ') {
                continue;
            }
            if (i > start) {
                slots[count++] = mix(hash(WORD, clean, start, i)) & mask;
                if (previousStart >= 0) {
                    slots[count++] = mix(hash(PAIR, clean, previousStart, i)) & mask;
                }
                previousStart = start;
            }
            start = i + 1;
        }
        int[] sorted = Arrays.copyOf(slots, count);
        Arrays.sort(sorted);
        int distinct = 0;
        for (int i = 0; i < sorted.length; i++) {
            if (distinct == 0 || sorted[distinct - 1] != sorted[i]) {
                sorted[distinct++] = sorted[i];
            }
        }
        return Arrays.copyOf(sorted, distinct);
    }

    /** Letters, digits, {@code @ + '} kept, anything else one space; begins and ends with a space. */
    private static char[] cleaned(String normalized) {
        char[] clean = new char[normalized.length() + 2];
        int length = 0;
        clean[length++] = ' ';
        for (int i = 0; i < normalized.length(); i++) {
            char c = normalized.charAt(i);
            boolean kept = Character.isLetterOrDigit(c) || c == '@' || c == '+' || c == '\'';
            if (kept) {
                clean[length++] = c;
            } else if (clean[length - 1] != ' ') {
                clean[length++] = ' ';
            }
        }
        if (clean[length - 1] != ' ') {
            clean[length++] = ' ';
        }
        return Arrays.copyOf(clean, length);
    }

    private static int hash(int kind, char[] text, int from, int to) {
        int hash = kind;
        for (int i = from; i < to; i++) {
            hash = 31 * hash + text[i];
        }
        return hash;
    }

    /** Spreads a polynomial hash over the low bits (murmur3's finalizer). */
    private static int mix(int hash) {
        hash ^= hash >>> 16;
        hash *= 0x85ebca6b;
        hash ^= hash >>> 13;
        hash *= 0xc2b2ae35;
        return hash ^ hash >>> 16;
    }
}
