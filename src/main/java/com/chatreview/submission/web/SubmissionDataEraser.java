package com.chatreview.submission.web;

import com.chatreview.privacy.ErasureTally;
import com.chatreview.privacy.UserDataEraser;
import com.chatreview.submission.ErasedSubmission;
import com.chatreview.submission.SubmissionManagement;
import com.chatreview.tenancy.TenantId;
import com.chatreview.webhook.WebhookEvents;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The submission module's part of a user's erasure: each submission whose {@code studentId} is the user, with its
 * files, decisions and review chat, and the payloads of the webhook deliveries about the submission and the chat, in
 * one transaction per submission.
 */
@Component
@Order(20)
class SubmissionDataEraser implements UserDataEraser {

    private final SubmissionManagement submissions;
    private final WebhookEvents webhooks;
    private final TransactionTemplate transaction;

    SubmissionDataEraser(SubmissionManagement submissions, WebhookEvents webhooks, TransactionTemplate transaction) {
        this.submissions = submissions;
        this.webhooks = webhooks;
        this.transaction = transaction;
    }

    @Override
    public void erase(TenantId tenantId, String userId, ErasureTally tally) {
        submissions.forEachSubmissionOf(
                tenantId,
                userId,
                submission -> transaction.executeWithoutResult(status -> {
                    webhooks.tombstone(tenantId, submission.id().toString());
                    webhooks.tombstone(tenantId, submission.chatId().toString());
                    ErasedSubmission erased = submissions.erase(tenantId, submission);
                    tally.erased(erased.chat() ? 1 : 0, erased.messages(), erased.submission() ? 1 : 0, erased.files());
                }));
    }
}
