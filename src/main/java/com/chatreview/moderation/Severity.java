package com.chatreview.moderation;

import java.util.Locale;

/** How urgently an adult should look at a flag: in this order. */
public enum Severity {
    LOW,
    MEDIUM,
    HIGH;

    /** As the API writes it: {@code high}. */
    public String value() {
        return name().toLowerCase(Locale.ROOT);
    }
}
