package com.chatreview.privacy;

import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.SchedulerName;
import com.github.kagkarlsson.scheduler.logging.LogLevel;
import com.github.kagkarlsson.scheduler.task.FailureHandler;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import java.time.Clock;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Executors;
import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.datasource.TransactionAwareDataSourceProxy;

/**
 * The privacy module's durable jobs: db-scheduler on a table of their own ({@code privacy_tasks}), so that neither
 * this scheduler nor the reviews' meets the other's tasks. One erasure runs at a time on a node; a job whose node
 * died is taken over by another.
 */
@Configuration(proxyBeanMethods = false)
class PrivacyJobs {

    static final String TABLE = "privacy_tasks";
    static final String ERASE_USER = "erase-user";

    @Bean
    OneTimeTask<String> eraseUserTask(ObjectProvider<UserErasure> erasure, PrivacySettings settings) {
        return Tasks.oneTime(ERASE_USER, String.class)
                .onFailure(new FailureHandler.OnFailureRetryLater<>(settings.erasureRetry()))
                .execute((instance, context) ->
                        erasure.getObject().run(UUID.fromString(instance.getId()), instance.getData()));
    }

    @Bean
    ErasureScheduler erasureScheduler(
            DataSource dataSource, OneTimeTask<String> eraseUserTask, PrivacySettings settings, Clock clock) {
        // Through the proxy, a job scheduled inside a transaction (the erasure's record) commits with it or not at all.
        Scheduler scheduler = Scheduler.create(new TransactionAwareDataSourceProxy(dataSource), List.of(eraseUserTask))
                .tableName(TABLE)
                .schedulerName(new SchedulerName.Fixed(new SchedulerName.Hostname().getName() + "-"
                        + ProcessHandle.current().pid() + "-privacy"))
                .threads(1)
                .executorService(Executors.newThreadPerTaskExecutor(
                        Thread.ofVirtual().name("privacy-", 0).factory()))
                .pollingInterval(settings.jobPollInterval())
                .pollUsingLockAndFetch(0.5, 1.0)
                .heartbeatInterval(settings.jobHeartbeat())
                .missedHeartbeatsLimit(settings.jobMissedHeartbeats())
                // a part that could not finish yet is logged by the job's next run, if it fails again
                .failureLogging(LogLevel.INFO, false)
                .build();
        return new ErasureScheduler(scheduler, eraseUserTask, clock);
    }
}
