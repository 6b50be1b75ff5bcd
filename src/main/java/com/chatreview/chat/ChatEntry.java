package com.chatreview.chat;

/**
 * What a connection opening on a chat needs to know, read in one round trip: the chat, the highest event
 * {@code seq} a stored message of it carries, and whether its user was seen for the first time (and created).
 */
public record ChatEntry(Chat chat, long latestEventSeq, boolean userCreated) {}
