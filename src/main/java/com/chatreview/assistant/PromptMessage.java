package com.chatreview.assistant;

/** One message of what the openai provider is sent: who says it, and what. */
record PromptMessage(Role role, String text) {

    /** The chat completion roles the service uses, as the endpoint spells them. */
    enum Role {
        SYSTEM("system"),
        USER("user"),
        ASSISTANT("assistant");

        private final String wire;

        Role(String wire) {
            this.wire = wire;
        }

        String wire() {
            return wire;
        }
    }

    static PromptMessage system(String text) {
        return new PromptMessage(Role.SYSTEM, text);
    }

    static PromptMessage user(String text) {
        return new PromptMessage(Role.USER, text);
    }

    static PromptMessage assistant(String text) {
        return new PromptMessage(Role.ASSISTANT, text);
    }
}
