package com.chatreview.privacy;

import java.time.Duration;
import java.time.LocalTime;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The privacy module's settings.
 *
 * @param jobPollInterval how often a node looks for erasure jobs nobody runs (one started on this node, or left by
 *     a node that died); a job scheduled here starts at once
 * @param erasureRetry how long an erasure that could not finish (a reply still being written into one of the user's
 *     chats, a connection on another node not closed yet) waits before it runs again
 * @param jobHeartbeat how often the node running a job says it is alive
 * @param jobMissedHeartbeats after this many heartbeats missed, the node is taken for dead and another runs its job
 *     (by default two minutes after a crash)
 * @param retentionAt when, each day (UTC), the retention run erases what is older than the tenants' settings
 */
@ConfigurationProperties("privacy")
public record PrivacySettings(
        @DefaultValue("10s") Duration jobPollInterval,
        @DefaultValue("5s") Duration erasureRetry,
        @DefaultValue("30s") Duration jobHeartbeat,
        @DefaultValue("4") int jobMissedHeartbeats,
        @DefaultValue("03:00") LocalTime retentionAt) {}
