package com.chatreview.submission;

import com.chatreview.chat.ChatId;
import com.chatreview.homework.HomeworkId;
import java.util.UUID;

/** A submission was stored and awaits its review; published in the transaction that stored it. */
public record SubmissionReceived(UUID tenantId, SubmissionId submissionId, HomeworkId homeworkId, ChatId chatId) {}
