package com.chatreview.webhook;

import java.util.Arrays;
import java.util.Optional;

/** The events an endpoint may subscribe to, by their wire names. */
public enum EventType {
    SUBMISSION_CREATED("submission.created"),
    SUBMISSION_REVIEWED("submission.reviewed"),
    SUBMISSION_REVIEW_FAILED("submission.review_failed"),
    SUBMISSION_DECIDED("submission.decided"),
    SUBMISSION_REGRADE_REQUESTED("submission.regrade_requested"),
    SUBMISSION_REGRADE_ANSWERED("submission.regrade_answered"),
    CHAT_MESSAGE_CREATED("chat.message.created"),
    CHAT_MESSAGE_FLAGGED("chat.message.flagged"),
    CHAT_DELETED("chat.deleted"),
    USAGE_BUDGET_THRESHOLD("usage.budget_threshold");

    private final String wireName;

    EventType(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    public static Optional<EventType> of(String wireName) {
        return Arrays.stream(values())
                .filter(type -> type.wireName.equals(wireName))
                .findFirst();
    }
}
