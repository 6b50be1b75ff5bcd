package com.chatreview.moderation;

import com.chatreview.kernel.PageRequest;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/** Which of a tenant's flags to list: flagged from {@code from} (included) to {@code to} (excluded), of a category. */
public record FlagQuery(
        @Nullable Instant from,
        @Nullable Instant to,
        @Nullable SafetyCategory category,
        PageRequest page) {}
