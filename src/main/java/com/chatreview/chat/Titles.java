package com.chatreview.chat;

/** The short title a chat gets from its first user message when none was given. */
final class Titles {

    static final int MAX_LENGTH = 60;

    private Titles() {}

    static String fromMessage(String content) {
        String line = content.strip()
                .lines()
                .findFirst()
                .orElse("")
                .replaceAll("\\s+", " ")
                .strip();
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
