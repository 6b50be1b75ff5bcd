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
 * @param replyStorePatience how long a streamed reply waits to be stored while the database is busy or unreachable
 *     before it is given up (the chat is told {@code SERVICE_UNAVAILABLE}): what a student was shown is kept
 *     unless the database stays away this long; below the hour a stream in progress is kept for resuming clients
 * @param messageStorePatience how long a client's message waits for a free database connection before it is
 *     refused ({@code SERVICE_UNAVAILABLE}, nothing stored); an unreachable database refuses it at once
 */
@ConfigurationProperties("realtime")
public record ConversationSettings(
        @DefaultValue("50") int historyMessages,
        @DefaultValue("15s") Duration laneLease,
        @DefaultValue("10s") Duration laneTurnGrace,
        @DefaultValue("15m") Duration replyStorePatience,
        @DefaultValue("30s") Duration messageStorePatience) {}
