package com.chatreview.assistant;

/** The assistant could not produce a complete reply; nothing of it is to be stored. */
public class AssistantFailure extends RuntimeException {

    public AssistantFailure(String message) {
        super(message);
    }

    public AssistantFailure(String message, Throwable cause) {
        super(message, cause);
    }
}
