package com.chatreview.privacy;

import com.chatreview.database.JobScheduler;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;
import java.util.UUID;

/** Schedules each erasure on the privacy module's job scheduler. */
class ErasureScheduler {

    private final JobScheduler jobs;
    private final OneTimeTask<String> task;

    ErasureScheduler(JobScheduler jobs, OneTimeTask<String> task) {
        this.jobs = jobs;
        this.task = task;
    }

    /**
     * Schedules the erasure, with the user id as its data (the one place the id is kept while it runs), in the
     * transaction under way; this node looks for it as soon as that commits.
     */
    void schedule(UUID erasureId, String userId) {
        jobs.scheduleNow(task.instance(erasureId.toString(), userId));
    }
}
