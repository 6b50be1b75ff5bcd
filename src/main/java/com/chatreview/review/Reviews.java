package com.chatreview.review;

import com.chatreview.submission.Submission;
import com.chatreview.submission.SubmissionId;
import com.chatreview.submission.SubmissionManagement;
import com.chatreview.tenancy.TenantId;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** What an operator does with reviews. */
@Service
public class Reviews {

    private final SubmissionManagement submissions;
    private final ReviewScheduler scheduler;

    Reviews(SubmissionManagement submissions, ReviewScheduler scheduler) {
        this.submissions = submissions;
        this.scheduler = scheduler;
    }

    /**
     * Starts a new round of attempts at a review that failed for good; the submission and its job change in one
     * transaction.
     *
     * @return the submission, its review pending again
     */
    @Transactional
    public Submission retry(TenantId tenantId, SubmissionId submissionId) {
        Submission reopened = submissions.reopenReview(tenantId, submissionId);
        scheduler.schedule(tenantId, submissionId);
        return reopened;
    }
}
