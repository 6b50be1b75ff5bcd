package com.chatreview.review;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How the review jobs run.
 *
 * @param concurrency reviews one node runs at once ({@code REVIEW_CONCURRENCY}); never more than half the database pool
 * @param maxAttempts attempts of one review before it fails for good ({@code REVIEW_MAX_ATTEMPTS})
 * @param firstRetryDelay the wait before the second attempt; each later wait is {@code retryBackoff} times longer
 * @param retryBackoff how much longer each wait between attempts is than the one before
 * @param pollInterval how often a node looks for due jobs it did not schedule itself
 * @param heartbeat how often a node marks the jobs it runs as alive
 * @param missedHeartbeats heartbeats a job may miss before another node takes it over (its node died); at least 4
 * @param maxCharsPerFile the text budget of one student file
 * @param maxCharsTotal the text budget of all of a submission's files together
 * @param shutdownWait how long a stopping node waits for the reviews it runs; unfinished ones run again elsewhere
 */
@ConfigurationProperties("review")
public record ReviewSettings(
        @DefaultValue("4") int concurrency,
        @DefaultValue("4") int maxAttempts,
        @DefaultValue("30s") Duration firstRetryDelay,
        @DefaultValue("2.0") double retryBackoff,
        @DefaultValue("2s") Duration pollInterval,
        @DefaultValue("5s") Duration heartbeat,
        @DefaultValue("6") int missedHeartbeats,
        @DefaultValue("100000") int maxCharsPerFile,
        @DefaultValue("400000") int maxCharsTotal,
        @DefaultValue("30s") Duration shutdownWait) {

    public ReviewSettings {
        if (concurrency < 1 || maxAttempts < 1) {
            throw new IllegalArgumentException("review.concurrency and review.max-attempts must be at least 1");
        }
        if (missedHeartbeats < 4) {
            // db-scheduler's own floor: fewer would declare a merely slow node dead
            throw new IllegalArgumentException("review.missed-heartbeats must be at least 4");
        }
    }
}
