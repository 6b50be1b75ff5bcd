package com.chatreview.sandbox;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The files a run's tar (POSIX ustar, as GNU tar writes it) holds: regular files named among those asked for, each
 * once; anything else (a link, a FIFO, a name not asked for, a header that does not add up) is skipped or ends the
 * reading. A run writes this tar itself, so nothing in it is trusted beyond being bytes under a name.
 */
final class Tar {

    private static final int BLOCK = 512;

    private Tar() {}

    static Map<String, byte[]> regularFiles(byte[] tar, Set<String> wanted) {
        Map<String, byte[]> files = new LinkedHashMap<>();
        int at = 0;
        while (at + BLOCK <= tar.length) {
            if (tar[at] == 0) {
                break; // the end: blocks of zeros
            }
            String name = text(tar, at, 100);
            long size = octal(tar, at + 124, 12);
            byte type = tar[at + 156];
            int data = at + BLOCK;
            if (size < 0 || data + size > tar.length) {
                break;
            }
            if ((type == '0' || type == 0) && wanted.contains(name) && !files.containsKey(name)) {
                byte[] bytes = new byte[(int) size];
                System.arraycopy(tar, data, bytes, 0, (int) size);
                files.put(name, bytes);
            }
            at = data + (int) ((size + BLOCK - 1) / BLOCK * BLOCK);
        }
        return files;
    }

    private static String text(byte[] bytes, int from, int length) {
        int end = from;
        while (end < from + length && bytes[end] != 0) {
            end++;
        }
        return new String(bytes, from, end - from, StandardCharsets.UTF_8);
    }

    /** An octal field; -1 when it is none (GNU's base-256 sizes, past 8 GiB, are none here either). */
    private static long octal(byte[] bytes, int from, int length) {
        long value = 0;
        boolean digits = false;
        for (int i = from; i < from + length; i++) {
            byte b = bytes[i];
            if (b == 0 || b == ' ') {
                if (digits) {
                    break;
                }
                continue;
            }
            if (b < '0' || b > '7') {
                return -1;
            }
            value = value * 8 + (b - '0');
            digits = true;
        }
        return digits ? value : -1;
    }
}
