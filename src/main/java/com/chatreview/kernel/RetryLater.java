package com.chatreview.kernel;

import java.time.Duration;

/**
 * A failure that passes: the same request may succeed after {@link #retryAfter()}. The web module tells it as
 * {@code Retry-After}, the WebSocket as {@code retry_after_ms}.
 */
public interface RetryLater {

    /** How long the client should wait before trying again; positive. */
    Duration retryAfter();
}
