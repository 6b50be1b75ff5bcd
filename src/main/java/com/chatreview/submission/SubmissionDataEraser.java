package com.chatreview.submission;

import com.chatreview.chat.ChatErrors.ChatDeletionBlocked;
import com.chatreview.privacy.ErasureTally;
import com.chatreview.privacy.ExpiredDataEraser;
import com.chatreview.privacy.Retention;
import com.chatreview.privacy.UserDataEraser;
import com.chatreview.tenancy.TenantId;
import com.chatreview.webhook.WebhookEvents;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The submission module's part of a user's erasure: each submission whose {@code studentId} is the user, with its
 * files, decisions and review chat, and the payloads of the webhook deliveries about the submission and the chat, in
 * one transaction per submission. The same for the submissions past the tenant's retention, in the daily run.
 */
@Component
@Order(20)
class SubmissionDataEraser implements UserDataEraser, ExpiredDataEraser {

    private static final Logger log = LoggerFactory.getLogger(SubmissionDataEraser.class);

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
                submission -> eraseOne(tenantId, submission, erased -> {
                    tally.erased(erased.chat() ? 1 : 0, erased.messages(), erased.submission() ? 1 : 0, erased.files());
                }));
    }

    @Override
    public int eraseExpired(TenantId tenantId, Retention retention, Instant now) {
        Optional<Instant> cutoff = retention.submissionsCreatedBefore(now);
        if (cutoff.isEmpty()) {
            return 0;
        }
        int[] erased = {0};
        submissions.forEachSubmissionCreatedBefore(tenantId, cutoff.get(), submission -> {
            try {
                eraseOne(tenantId, submission, gone -> {
                    if (gone.submission()) {
                        erased[0]++;
                    }
                });
            } catch (ChatDeletionBlocked held) {
                log.info(
                        "Retention: submission {} is under review ({}); the next run erases it",
                        submission.id(),
                        held.getMessage());
            }
        });
        return erased[0];
    }

    /**
     * Erases the submission and tells {@code erased} what went, in the same transaction (an erasure counts it there: a
     * crash cannot leave a submission gone but not counted).
     */
    private void eraseOne(TenantId tenantId, Submission submission, Consumer<ErasedSubmission> erased) {
        transaction.executeWithoutResult(status -> {
            webhooks.tombstone(tenantId, submission.id().webhookOrderingKey());
            webhooks.tombstone(tenantId, submission.chatId().toString());
            erased.accept(submissions.erase(tenantId, submission));
        });
    }
}
