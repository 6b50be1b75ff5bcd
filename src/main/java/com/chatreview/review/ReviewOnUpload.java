package com.chatreview.review;

import com.chatreview.submission.SubmissionReceived;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/** Every submission received gets its review job. */
@Component
class ReviewOnUpload {

    private final ReviewScheduler scheduler;

    ReviewOnUpload(ReviewScheduler scheduler) {
        this.scheduler = scheduler;
    }

    /**
     * Runs in the upload's transaction (a plain listener, not an after-commit one), so that a submission is never
     * stored without its job. Once it commits, this node looks for due jobs at once instead of at its next poll.
     */
    @EventListener
    void submissionReceived(SubmissionReceived received) {
        scheduler.schedule(received.tenantId(), received.submissionId());
    }
}
