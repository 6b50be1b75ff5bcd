package com.chatreview.chat;

import java.util.regex.Pattern;

/** The short title a chat gets from its first user message when none was given. */
final class Titles {

    static final int MAX_LENGTH = 60;

    /** Compiled once: every user message's title is worked out (the statement storing it decides if it is used). */
    private static final Pattern WHITESPACE = Pattern.compile("\\s+");

    private Titles() {}

    static String fromMessage(String content) {
        String firstLine = content.strip().lines().findFirst().orElse("");
        String line = WHITESPACE.matcher(firstLine).replaceAll(" ").strip();
        if (line.isEmpty()) {
            return ChatManagement.DEFAULT_TITLE;
        }
        if (line.length() <= MAX_LENGTH) {
            return line;
        }
        int cut = line.lastIndexOf(' ', MAX_LENGTH - 1);
        return line.substring(0, cut > MAX_LENGTH / 2 ? cut : MAX_LENGTH - 1).strip() + "…";
    }
}
