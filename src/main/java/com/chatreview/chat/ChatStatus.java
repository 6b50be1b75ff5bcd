package com.chatreview.chat;

import java.util.Optional;

/** {@code active} on creation; {@code closed} chats keep their history but take no new messages. */
public enum ChatStatus {
    ACTIVE("active"),
    CLOSED("closed");

    private final String value;

    ChatStatus(String value) {
        this.value = value;
    }

    public String value() {
        return value;
    }

    public static Optional<ChatStatus> of(String value) {
        for (ChatStatus status : values()) {
            if (status.value.equals(value)) {
                return Optional.of(status);
            }
        }
        return Optional.empty();
    }
}
