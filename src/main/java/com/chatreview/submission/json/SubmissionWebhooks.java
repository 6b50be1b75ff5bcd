package com.chatreview.submission.json;

import com.chatreview.chatui.ChatUi;
import com.chatreview.submission.Submission;
import com.chatreview.submission.SubmissionChanged;
import com.chatreview.submission.json.SubmissionBodies.RegradeRequestBody;
import com.chatreview.submission.json.SubmissionBodies.SubmissionBody;
import com.chatreview.webhook.EventType;
import com.chatreview.webhook.WebhookEvents;
import java.util.UUID;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * The submission events of webhooks (docs/api.md, Webhooks), recorded in the transaction of the change, each with the
 * submission as {@code GET /v1/homeworks/{id}/submissions/{submissionId}} returns it.
 */
@Component
public class SubmissionWebhooks {

    private final WebhookEvents webhooks;
    private final ChatUi chatUi;

    SubmissionWebhooks(WebhookEvents webhooks, ChatUi chatUi) {
        this.webhooks = webhooks;
        this.chatUi = chatUi;
    }

    /** The regrade events' data: the request, and the submission as GET returns it. */
    record RegradeEvent(RegradeRequestBody regradeRequest, SubmissionBody submission) {}

    @EventListener
    void changed(SubmissionChanged changed) {
        EventType type = switch (changed) {
            case SubmissionChanged.Created created -> EventType.SUBMISSION_CREATED;
            case SubmissionChanged.Reviewed reviewed -> EventType.SUBMISSION_REVIEWED;
            case SubmissionChanged.ReviewFailed failed -> EventType.SUBMISSION_REVIEW_FAILED;
            case SubmissionChanged.Decided decided -> EventType.SUBMISSION_DECIDED;
            case SubmissionChanged.RegradeRequested requested -> EventType.SUBMISSION_REGRADE_REQUESTED;
            case SubmissionChanged.RegradeAnswered answered -> EventType.SUBMISSION_REGRADE_ANSWERED;
        };
        UUID requestId = switch (changed) {
            case SubmissionChanged.RegradeRequested requested -> requested.requestId();
            case SubmissionChanged.RegradeAnswered answered -> answered.requestId();
            default -> null;
        };
        Submission submission = changed.submission();
        if (webhooks.wanted(submission.tenantId(), type)) {
            SubmissionBody body = SubmissionBodies.body(submission, SubmissionBodies.chatUiUrl(chatUi));
            Object data = requestId == null
                    ? body
                    : submission.regradeRequests().stream()
                            .filter(request -> request.id().equals(requestId))
                            .findFirst()
                            .map(request -> (Object) new RegradeEvent(RegradeRequestBody.of(request), body))
                            .orElse(body);
            webhooks.record(submission.tenantId(), type, submission.id().webhookOrderingKey(), data);
        }
    }
}
