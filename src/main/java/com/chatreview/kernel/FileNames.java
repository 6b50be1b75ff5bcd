package com.chatreview.kernel;

import java.util.regex.Pattern;

/**
 * File names as clients send them are not to be trusted: {@code ../../etc/passwd}, {@code C:\x\y.txt},
 * control and bidirectional-override characters. What is kept is the last path segment, printable, at most
 * 255 characters with its extension intact.
 */
public final class FileNames {

    public static final int MAX_LENGTH = 255;
    private static final Pattern UNPRINTABLE = Pattern.compile("[\\p{Cntrl}\\p{Cf}\\p{Zl}\\p{Zp}]");
    /**
     * A name a program can be handed on any system without quoting: letters, digits, {@code _}, {@code .} and
     * {@code -}, not starting with a dot or a dash, at most 100 characters.
     */
    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}");

    private FileNames() {}

    /** Whether the name is {@linkplain #PLAIN plain}: what a sandboxed run's files may be called. */
    public static boolean isPlain(String name) {
        return PLAIN.matcher(name).matches();
    }

    /** The cleaned name, or an empty string when nothing usable is left. */
    public static String clean(String name) {
        String lastSegment = name.substring(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1);
        String cleaned = UNPRINTABLE.matcher(lastSegment).replaceAll("").strip();
        if (cleaned.equals(".") || cleaned.equals("..")) {
            return "";
        }
        if (cleaned.length() > MAX_LENGTH) {
            int dot = cleaned.lastIndexOf('.');
            String extension = dot > 0 && cleaned.length() - dot <= 16 ? cleaned.substring(dot) : "";
            cleaned = cleaned.substring(0, MAX_LENGTH - extension.length()) + extension;
        }
        return cleaned;
    }
}
