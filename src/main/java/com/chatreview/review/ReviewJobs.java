package com.chatreview.review;

import com.chatreview.assistant.Assistant;
import com.chatreview.database.DatabaseSettings;
import com.chatreview.homework.HomeworkCatalog;
import com.chatreview.realtime.AssistantTurns;
import com.chatreview.submission.SubmissionManagement;
import com.chatreview.submission.SubmissionReceived;
import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.SchedulerName;
import com.github.kagkarlsson.scheduler.logging.LogLevel;
import com.github.kagkarlsson.scheduler.stats.MicrometerStatsRegistry;
import com.github.kagkarlsson.scheduler.task.Execution;
import com.github.kagkarlsson.scheduler.task.ExecutionComplete;
import com.github.kagkarlsson.scheduler.task.ExecutionOperations;
import com.github.kagkarlsson.scheduler.task.FailureHandler;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Executors;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;
import org.springframework.jdbc.datasource.TransactionAwareDataSourceProxy;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The durable review job (db-scheduler on the {@code scheduled_tasks} table): one per submission, scheduled in the
 * transaction that stores the submission, picked by one node at a time, retried with growing waits, taken over by
 * another node (or the same one after a restart) when the node running it dies.
 */
@Configuration(proxyBeanMethods = false)
class ReviewJobs {

    private static final Logger log = LoggerFactory.getLogger(ReviewJobs.class);

    static final String TASK = "review-submission";

    @Bean
    SubmissionReviewer submissionReviewer(
            SubmissionManagement submissions,
            HomeworkCatalog homeworks,
            Assistant assistant,
            AssistantTurns turns,
            ReviewSettings settings,
            MeterRegistry meters) {
        return new SubmissionReviewer(submissions, homeworks, assistant, turns, settings, meters);
    }

    @Bean
    OneTimeTask<Void> reviewTask(
            SubmissionReviewer reviewer, ReviewSettings settings, PlatformTransactionManager transactions) {
        Attempts attempts = new Attempts(reviewer, settings, new TransactionTemplate(transactions));
        return Tasks.oneTime(TASK)
                .onFailure(attempts::failed)
                .onDeadExecution(attempts::died)
                .execute((instance, context) -> reviewer.review(UUID.fromString(instance.getId())));
    }

    /** What a failed attempt leads to: another one later, or, after the last, a review that failed for good. */
    private record Attempts(SubmissionReviewer reviewer, ReviewSettings settings, TransactionTemplate transaction) {

        /** A failed attempt waits and runs again, each wait longer than the one before. */
        void failed(ExecutionComplete complete, ExecutionOperations<Void> operations) {
            String reason = complete.getCause()
                    .map(cause -> cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage())
                    .orElse("unknown");
            FailureHandler<Void> backoff = new FailureHandler.ExponentialBackoffFailureHandler<>(
                    settings.firstRetryDelay(), settings.retryBackoff());
            end(complete.getExecution(), reason, operations, () -> backoff.onFailure(complete, operations));
        }

        /**
         * An attempt whose node died under it (no heartbeat for {@code missed-heartbeats}) counts as failed too,
         * so a file that brings its node down is given up on after {@code max-attempts} instead of taking down one
         * node after another. It runs again at once: the wait for the heartbeats was the backoff.
         */
        void died(ExecutionComplete complete, ExecutionOperations<Void> operations) {
            String reason = "the node running it stopped during the attempt";
            Instant now = Instant.now();
            ExecutionComplete failure =
                    ExecutionComplete.failure(complete.getExecution(), now, now, new IllegalStateException(reason));
            end(complete.getExecution(), reason, operations, () -> operations.reschedule(failure, now));
        }

        /**
         * The last attempt records the failure on the submission and ends the job in one transaction (the
         * scheduler's connection joins it through the proxy). Otherwise an operator's retry between the two would
         * find the old job still there, schedule nothing, and the old job's removal would then leave the reopened
         * review without a job.
         */
        private void end(Execution execution, String reason, ExecutionOperations<Void> operations, Runnable retry) {
            UUID submissionId = UUID.fromString(execution.taskInstance.getId());
            if (execution.consecutiveFailures + 1 >= settings.maxAttempts()) {
                transaction.executeWithoutResult(status -> {
                    reviewer.gaveUp(submissionId, reason);
                    operations.remove();
                });
            } else {
                reviewer.attemptFailed(submissionId, reason);
                retry.run();
            }
        }
    }

    @Bean
    ReviewScheduler reviewScheduler(
            DataSource dataSource,
            OneTimeTask<Void> reviewTask,
            ReviewSettings settings,
            DatabaseSettings database,
            MeterRegistry meters) {
        int workers = workers(settings.concurrency(), database.poolSize());
        if (workers < settings.concurrency()) {
            log.warn(
                    "review.concurrency {} is more than half the database pool ({} connections): {} reviews run at"
                            + " once, so that requests always find a connection. Raise DATABASE_POOL_SIZE to run more.",
                    settings.concurrency(),
                    database.poolSize(),
                    workers);
        }
        // Through the proxy, a job scheduled inside a transaction (the upload's) commits with it or not at all.
        Scheduler scheduler = Scheduler.create(new TransactionAwareDataSourceProxy(dataSource), List.of(reviewTask))
                .schedulerName(new SchedulerName.Fixed(new SchedulerName.Hostname().getName() + "-"
                        + ProcessHandle.current().pid()))
                .threads(workers)
                .executorService(Executors.newThreadPerTaskExecutor(
                        Thread.ofVirtual().name("review-", 0).factory()))
                .pollingInterval(settings.pollInterval())
                .pollUsingLockAndFetch(0.5, 1.0)
                .heartbeatInterval(settings.heartbeat())
                .missedHeartbeatsLimit(settings.missedHeartbeats())
                .shutdownMaxWait(settings.shutdownWait())
                // a failed attempt is logged once, by the reviewer, with the submission it concerns
                .failureLogging(LogLevel.DEBUG, false)
                .statsRegistry(new MicrometerStatsRegistry(meters, List.of(reviewTask)))
                .build();
        return new ReviewScheduler(scheduler, reviewTask);
    }

    /**
     * How many reviews run at once: as configured, but at most half the database pool. Reviews query often, and
     * more of them than that starve the requests of connections (measured: 16 reviews on a pool of 10 made uploads
     * wait out the pool's timeout, docs/benchmarks.md).
     */
    static int workers(int concurrency, int poolSize) {
        return Math.min(concurrency, Math.max(1, poolSize / 2));
    }

    /** Starts and stops the scheduler with the service, and schedules each received submission's review. */
    static class ReviewScheduler implements SmartLifecycle {

        private final Scheduler scheduler;
        private final OneTimeTask<Void> task;
        private volatile boolean running;

        ReviewScheduler(Scheduler scheduler, OneTimeTask<Void> task) {
            this.scheduler = scheduler;
            this.task = task;
        }

        /**
         * Runs in the upload's transaction (a plain listener, not an after-commit one), so that a submission is
         * never stored without its job. Once it commits, this node looks for due jobs at once instead of at its
         * next poll.
         */
        @EventListener
        void submissionReceived(SubmissionReceived received) {
            schedule(received.submissionId());
        }

        void schedule(UUID submissionId) {
            scheduler.scheduleIfNotExists(task.instance(submissionId.toString()), Instant.now());
            if (TransactionSynchronizationManager.isSynchronizationActive()) {
                TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
                    @Override
                    public void afterCommit() {
                        scheduler.triggerCheckForDueExecutions();
                    }
                });
            } else {
                scheduler.triggerCheckForDueExecutions();
            }
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
}
