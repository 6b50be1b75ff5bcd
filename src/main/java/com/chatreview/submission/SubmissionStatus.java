package com.chatreview.submission;

import java.util.Optional;

/**
 * Where a submission stands. The AI moves it from {@code submitted} to {@code reviewed}; the teacher decides
 * {@code approved} or {@code needs_revision} from any other status, and may change that decision.
 */
public enum SubmissionStatus {
    SUBMITTED("submitted"),
    REVIEWED("reviewed"),
    APPROVED("approved"),
    NEEDS_REVISION("needs_revision");

    private final String value;

    SubmissionStatus(String value) {
        this.value = value;
    }

    public String value() {
        return value;
    }

    public boolean teacherDecision() {
        return this == APPROVED || this == NEEDS_REVISION;
    }

    public static Optional<SubmissionStatus> of(String value) {
        for (SubmissionStatus status : values()) {
            if (status.value.equals(value)) {
                return Optional.of(status);
            }
        }
        return Optional.empty();
    }
}
