package com.chatreview.review;

import com.chatreview.database.AfterCommit;
import com.chatreview.submission.SubmissionId;
import com.chatreview.tenancy.TenantId;
import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.task.TaskInstance;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;
import java.time.Clock;
import org.springframework.context.SmartLifecycle;

/** Starts and stops the job scheduler with the service, and schedules each received submission's review. */
class ReviewScheduler implements SmartLifecycle {

    private final Scheduler scheduler;
    private final OneTimeTask<Void> task;
    private final Clock clock;
    private final FairReviewOrder order;
    private volatile boolean running;

    ReviewScheduler(Scheduler scheduler, OneTimeTask<Void> task, FairReviewOrder order, Clock clock) {
        this.scheduler = scheduler;
        this.task = task;
        this.order = order;
        this.clock = clock;
    }

    /** Schedules the submission's review at the back of its tenant's line ({@link FairReviewOrder}). */
    void schedule(TenantId tenant, SubmissionId submissionId) {
        scheduler.scheduleIfNotExists(task.instance(submissionId.toString()), clock.instant());
        order.joinLine(tenant, submissionId);
        AfterCommit.run(scheduler::triggerCheckForDueExecutions);
    }

    /** Schedules a job of another of the scheduler's tasks, due now, in the transaction under way. */
    void scheduleNow(String task, String id) {
        scheduler.scheduleIfNotExists(new TaskInstance<>(task, id), clock.instant());
        AfterCommit.run(scheduler::triggerCheckForDueExecutions);
    }

    /** Jobs became due: this node looks for them now, not at its next poll. */
    void checkNow() {
        scheduler.triggerCheckForDueExecutions();
    }

    /** Holds back due jobs (tests do, to act before a review starts); running ones go on. */
    void pause() {
        scheduler.pause();
    }

    void resume() {
        scheduler.resume();
        scheduler.triggerCheckForDueExecutions();
    }

    @Override
    public void start() {
        scheduler.start();
        running = true;
    }

    /** Waits for the reviews this node runs (at most {@code review.shutdown-wait}); others are not started. */
    @Override
    public void stop() {
        scheduler.stop();
        running = false;
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /** Stops before the WebSocket connections close, so that a review in progress still reaches them. */
    @Override
    public int getPhase() {
        return Integer.MAX_VALUE - 50;
    }
}
