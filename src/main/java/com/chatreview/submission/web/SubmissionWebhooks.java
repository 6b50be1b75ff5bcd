package com.chatreview.submission.web;

import com.chatreview.chatui.ChatUi;
import com.chatreview.submission.SubmissionChanged;
import com.chatreview.submission.SubmissionId;
import com.chatreview.submission.SubmissionsForReview;
import com.chatreview.webhook.EventType;
import com.chatreview.webhook.WebhookEvents;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * The submission events of webhooks (docs/api.md, Webhooks), recorded in the transaction of the change, each with the
 * submission as {@code GET /v1/homeworks/{id}/submissions/{submissionId}} returns it.
 */
@Component
class SubmissionWebhooks {

    private final SubmissionsForReview submissions;
    private final WebhookEvents webhooks;
    private final ChatUi chatUi;

    SubmissionWebhooks(SubmissionsForReview submissions, WebhookEvents webhooks, ChatUi chatUi) {
        this.submissions = submissions;
        this.webhooks = webhooks;
        this.chatUi = chatUi;
    }

    /**
     * What orders a submission's events, and finds them again: its erasure replaces their payloads by this key (a
     * chat's events are ordered by the chat's id, which a submission's id could equal as text).
     */
    static String orderingKey(SubmissionId submission) {
        return "submission:" + submission;
    }

    @EventListener
    void changed(SubmissionChanged changed) {
        EventType type = switch (changed) {
            case SubmissionChanged.Created created -> EventType.SUBMISSION_CREATED;
            case SubmissionChanged.Reviewed reviewed -> EventType.SUBMISSION_REVIEWED;
            case SubmissionChanged.ReviewFailed failed -> EventType.SUBMISSION_REVIEW_FAILED;
            case SubmissionChanged.Decided decided -> EventType.SUBMISSION_DECIDED;
        };
        submissions.find(changed.submissionId()).ifPresent(submission -> {
            if (webhooks.wanted(submission.tenantId(), type)) {
                webhooks.record(
                        submission.tenantId(),
                        type,
                        orderingKey(submission.id()),
                        SubmissionController.body(submission, SubmissionController.chatUiUrl(chatUi)));
            }
        });
    }
}
