package com.chatreview.review;

import com.chatreview.database.JobScheduler;
import com.chatreview.submission.SubmissionId;
import com.chatreview.tenancy.TenantId;
import com.github.kagkarlsson.scheduler.task.TaskInstance;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;

/** Schedules each received submission's review, and the review module's other jobs, on its job scheduler. */
class ReviewScheduler {

    private final JobScheduler jobs;
    private final OneTimeTask<Void> task;
    private final FairReviewOrder order;

    ReviewScheduler(JobScheduler jobs, OneTimeTask<Void> task, FairReviewOrder order) {
        this.jobs = jobs;
        this.task = task;
        this.order = order;
    }

    /** Schedules the submission's review at the back of its tenant's line ({@link FairReviewOrder}). */
    void schedule(TenantId tenant, SubmissionId submissionId) {
        jobs.scheduleNow(task.instance(submissionId.toString()), () -> order.joinLine(tenant, submissionId));
    }

    /** Schedules a job of another of the scheduler's tasks, due now, in the transaction under way. */
    void scheduleNow(String task, String id) {
        jobs.scheduleNow(new TaskInstance<>(task, id));
    }

    /** Jobs became due: this node looks for them now, not at its next poll. */
    void checkNow() {
        jobs.checkNow();
    }

    /** Holds back due jobs (tests do, to act before a review starts); running ones go on. */
    void pause() {
        jobs.pause();
    }

    void resume() {
        jobs.resume();
    }
}
