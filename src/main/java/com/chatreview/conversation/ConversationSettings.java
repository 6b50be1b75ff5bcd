package com.chatreview.conversation;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How chats are answered. The prefix is the WebSocket's ({@code realtime.}, {@code REALTIME_*}), where these settings
 * were first documented: their names did not change when the conversation became its own module.
 *
 * @param historyMessages how many of the chat's latest messages a reply is generated from
 * @param laneLease in a cluster, how long a node holds a chat's reply lane after it stopped renewing it (it died):
 *     the longest a dead node blocks the chat
 * @param laneTurnGrace in a cluster, how long the node of a chat's next frame has to take its turn before the
 *     frame after it goes first
 */
@ConfigurationProperties("realtime")
public record ConversationSettings(
        @DefaultValue("50") int historyMessages,
        @DefaultValue("15s") Duration laneLease,
        @DefaultValue("10s") Duration laneTurnGrace) {}
