package com.chatreview.lti.platform;

import java.time.OffsetDateTime;
import org.jspecify.annotations.Nullable;

/** A score the platform accepted into a line item, as the tool sent it. */
public record Score(
        String userId,
        @Nullable Double scoreGiven,
        @Nullable Double scoreMaximum,
        @Nullable String comment,
        String activityProgress,
        String gradingProgress,
        OffsetDateTime timestamp,
        String body) {}
