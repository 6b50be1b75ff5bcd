package com.chatreview.submission;

import com.chatreview.chat.ChatId;
import com.chatreview.homework.HomeworkId;
import com.chatreview.tenancy.TenantId;

/** A submission was stored and awaits its review; published in the transaction that stored it. */
public record SubmissionReceived(TenantId tenantId, SubmissionId submissionId, HomeworkId homeworkId, ChatId chatId) {}
