/**
 * Chats and their stored messages: create, read, page, change, delete; append a message with its per-chat
 * position. The WebSocket side writes messages through {@link com.chatreview.chat.ChatManagement} and may
 * block a delete through {@link com.chatreview.chat.ChatDeletionGuard}.
 */
@org.jspecify.annotations.NullMarked
@org.springframework.modulith.ApplicationModule(displayName = "Chat")
package com.chatreview.chat;
