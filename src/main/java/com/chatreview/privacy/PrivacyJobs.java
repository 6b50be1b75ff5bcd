package com.chatreview.privacy;

import com.chatreview.database.JobScheduler;
import com.chatreview.database.JobSchedulers;
import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.logging.LogLevel;
import com.github.kagkarlsson.scheduler.task.FailureHandler;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;
import com.github.kagkarlsson.scheduler.task.helper.RecurringTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import com.github.kagkarlsson.scheduler.task.schedule.Schedules;
import java.time.Clock;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The privacy module's durable jobs: db-scheduler on a table of their own ({@code privacy_tasks}), so that neither
 * this scheduler nor the reviews' meets the other's tasks. One erasure runs at a time on a node; a job whose node
 * died is taken over by another. The daily retention run is one recurring job: whichever node picks it runs it, once
 * for the cluster.
 */
@Configuration(proxyBeanMethods = false)
class PrivacyJobs {

    static final String TABLE = "privacy_tasks";
    static final String ERASE_USER = "erase-user";
    static final String APPLY_RETENTION = "apply-retention";

    @Bean
    OneTimeTask<String> eraseUserTask(ObjectProvider<UserErasure> erasure, PrivacySettings settings) {
        return Tasks.oneTime(ERASE_USER, String.class)
                .onFailure(new FailureHandler.OnFailureRetryLater<>(settings.erasureRetry()))
                .execute((instance, context) ->
                        erasure.getObject().run(UUID.fromString(instance.getId()), instance.getData()));
    }

    /** Once a day, at {@code privacy.retention-at} (UTC), on one node of the cluster: the retention run. */
    @Bean
    RecurringTask<Void> retentionTask(ObjectProvider<DataRetention> retention, PrivacySettings settings, Clock clock) {
        return Tasks.recurring(APPLY_RETENTION, Schedules.daily(ZoneOffset.UTC, settings.retentionAt()))
                .execute((instance, context) -> retention.getObject().applyAll(clock.instant()));
    }

    @Bean
    ErasureScheduler erasureScheduler(JobScheduler privacyJobScheduler, OneTimeTask<String> eraseUserTask) {
        return new ErasureScheduler(privacyJobScheduler, eraseUserTask);
    }

    @Bean
    JobScheduler privacyJobScheduler(
            DataSource dataSource,
            OneTimeTask<String> eraseUserTask,
            RecurringTask<Void> retentionTask,
            PrivacySettings settings,
            Clock clock) {
        // a job scheduled inside a transaction (the erasure's record) commits with it or not at all
        Scheduler scheduler = JobSchedulers.create(dataSource, List.of(eraseUserTask), "privacy", 1, 0.5)
                .startTasks(retentionTask)
                .tableName(TABLE)
                .pollingInterval(settings.jobPollInterval())
                .heartbeatInterval(settings.jobHeartbeat())
                .missedHeartbeatsLimit(settings.jobMissedHeartbeats())
                // a part that could not finish yet is logged by the job's next run, if it fails again
                .failureLogging(LogLevel.INFO, false)
                .build();
        return new JobScheduler(scheduler, clock);
    }
}
