package com.chatreview.usage;

/** What the AI was asked for: a reply in a chat, or a submission's review. */
public enum UsageKind {
    CHAT,
    REVIEW;

    /** As the API writes it. */
    public String value() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
