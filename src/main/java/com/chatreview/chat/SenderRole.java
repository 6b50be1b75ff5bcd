package com.chatreview.chat;

/** Who wrote a message. */
public enum SenderRole {
    USER("user"),
    ASSISTANT("assistant");

    private final String value;

    SenderRole(String value) {
        this.value = value;
    }

    public String value() {
        return value;
    }

    static SenderRole of(String value) {
        return value.equals(USER.value) ? USER : ASSISTANT;
    }
}
