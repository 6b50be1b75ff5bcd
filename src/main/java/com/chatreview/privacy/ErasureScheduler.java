package com.chatreview.privacy;

import com.chatreview.database.AfterCommit;
import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;
import java.time.Clock;
import java.util.UUID;
import org.springframework.context.SmartLifecycle;

/** Starts and stops the privacy module's job scheduler with the service, and schedules each erasure. */
class ErasureScheduler implements SmartLifecycle {

    private final Scheduler scheduler;
    private final OneTimeTask<String> task;
    private final Clock clock;
    private volatile boolean running;

    ErasureScheduler(Scheduler scheduler, OneTimeTask<String> task, Clock clock) {
        this.scheduler = scheduler;
        this.task = task;
        this.clock = clock;
    }

    /**
     * Schedules the erasure, with the user id as its data (the one place the id is kept while it runs), in the
     * transaction under way; this node looks for it as soon as that commits.
     */
    void schedule(UUID erasureId, String userId) {
        scheduler.scheduleIfNotExists(task.instance(erasureId.toString(), userId), clock.instant());
        AfterCommit.run(scheduler::triggerCheckForDueExecutions);
    }

    @Override
    public void start() {
        scheduler.start();
        running = true;
    }

    @Override
    public void stop() {
        scheduler.stop();
        running = false;
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /** Stops before the WebSocket connections and the database go, like the reviews' scheduler. */
    @Override
    public int getPhase() {
        return Integer.MAX_VALUE - 50;
    }
}
