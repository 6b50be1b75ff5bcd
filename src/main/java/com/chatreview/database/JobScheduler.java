package com.chatreview.database;

import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.task.TaskInstance;
import java.time.Clock;
import org.springframework.context.SmartLifecycle;

/**
 * A module's durable job scheduler (db-scheduler, built by {@link JobSchedulers#create}), started and stopped with the
 * service, and the one way a module schedules a job: due now, in the transaction under way, looked for by this node
 * as soon as that commits.
 */
public final class JobScheduler implements SmartLifecycle {

    private final Scheduler scheduler;
    private final Clock clock;
    private volatile boolean running;

    public JobScheduler(Scheduler scheduler, Clock clock) {
        this.scheduler = scheduler;
        this.clock = clock;
    }

    /** Schedules the job unless one of that task and id is already waiting; it commits with the transaction. */
    public void scheduleNow(TaskInstance<?> job) {
        scheduleNow(job, () -> {});
    }

    /**
     * Schedules the job as {@link #scheduleNow(TaskInstance)} does, and runs {@code alsoBeforeItRuns} (which may
     * write to the job's row) before this node looks for it, so that no worker picks the job before that is done.
     */
    public void scheduleNow(TaskInstance<?> job, Runnable alsoBeforeItRuns) {
        scheduler.scheduleIfNotExists(job, clock.instant());
        alsoBeforeItRuns.run();
        AfterCommit.run(scheduler::triggerCheckForDueExecutions);
    }

    /** Jobs became due: this node looks for them now, not at its next poll. */
    public void checkNow() {
        scheduler.triggerCheckForDueExecutions();
    }

    /** Holds back due jobs (tests do, to act before a job starts); running ones go on. */
    public void pause() {
        scheduler.pause();
    }

    public void resume() {
        scheduler.resume();
        scheduler.triggerCheckForDueExecutions();
    }

    @Override
    public void start() {
        scheduler.start();
        running = true;
    }

    /** Waits for the jobs this node runs (at most the scheduler's shutdown wait); others are not started. */
    @Override
    public void stop() {
        scheduler.stop();
        running = false;
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /** Stops before the WebSocket connections close, so that a job in progress (a review) still reaches them. */
    @Override
    public int getPhase() {
        return Integer.MAX_VALUE - 50;
    }
}
