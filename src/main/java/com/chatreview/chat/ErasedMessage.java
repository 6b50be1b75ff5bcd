package com.chatreview.chat;

import java.util.UUID;

/** A message of an erased user in another user's chat, emptied where it stands. */
public record ErasedMessage(ChatId chatId, UUID messageId) {}
