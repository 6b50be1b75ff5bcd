package com.chatreview.submission;

import com.chatreview.chat.ChatId;
import java.util.UUID;

/** A submission was stored and awaits its review; published in the transaction that stored it. */
public record SubmissionReceived(UUID tenantId, UUID submissionId, UUID homeworkId, ChatId chatId) {}
