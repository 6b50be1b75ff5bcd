package com.chatreview.chat;

/**
 * The outcome of appending a message.
 *
 * @param duplicate the message's {@code client_message_id} was already stored: {@code message} is the
 *     original, and nothing new was written
 */
public record AppendedMessage(ChatMessage message, boolean duplicate) {}
