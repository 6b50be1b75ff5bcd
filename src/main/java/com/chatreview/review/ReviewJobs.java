package com.chatreview.review;

import com.chatreview.conversation.ServiceTurns;
import com.chatreview.database.DatabaseSettings;
import com.chatreview.database.JobScheduler;
import com.chatreview.database.JobSchedulers;
import com.chatreview.submission.Regrades;
import com.chatreview.submission.SubmissionId;
import com.chatreview.submission.SubmissionsForReview;
import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.logging.LogLevel;
import com.github.kagkarlsson.scheduler.stats.MicrometerStatsRegistry;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Lazy;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Configures the durable review job (db-scheduler on the {@code scheduled_tasks} table): one per submission,
 * scheduled in the transaction that stores the submission ({@link ReviewScheduler}), picked by one node at a time,
 * retried with growing waits ({@link ReviewRetries}), taken over by another node (or the same one after a restart)
 * when the node running it dies.
 */
@Configuration(proxyBeanMethods = false)
class ReviewJobs {

    private static final Logger log = LoggerFactory.getLogger(ReviewJobs.class);

    static final String TASK = "review-submission";

    @Bean
    OneTimeTask<Void> reviewTask(
            SubmissionReviewer reviewer,
            ReviewSettings settings,
            FairReviewOrder order,
            PlatformTransactionManager transactions,
            Clock clock) {
        ReviewRetries attempts =
                new ReviewRetries(reviewer, order, settings, new TransactionTemplate(transactions), clock);
        return Tasks.oneTime(TASK)
                .onFailure(attempts::failed)
                .onDeadExecution(attempts::died)
                .execute((instance, context) -> {
                    SubmissionId submissionId = SubmissionId.of(UUID.fromString(instance.getId()));
                    order.started(submissionId);
                    reviewer.review(submissionId);
                });
    }

    /**
     * The job that posts a teacher's answer to a regrade request into the review chat ({@link RegradeAnswers}):
     * retried with the scheduler's default waits (five minutes) when it fails.
     */
    @Bean
    OneTimeTask<Void> regradeAnswerTask(@Lazy RegradeAnswers answers) {
        return Tasks.oneTime(RegradeAnswers.TASK).execute((instance, context) -> answers.post(instance.getId()));
    }

    @Bean
    RegradeAnswers regradeAnswers(
            SubmissionsForReview submissions,
            Regrades regrades,
            ServiceTurns turns,
            PlatformTransactionManager transactions,
            ReviewScheduler scheduler) {
        return new RegradeAnswers(submissions, regrades, turns, transactions, scheduler);
    }

    @Bean
    ReviewScheduler reviewScheduler(
            JobScheduler reviewJobScheduler, OneTimeTask<Void> reviewTask, FairReviewOrder order) {
        return new ReviewScheduler(reviewJobScheduler, reviewTask, order);
    }

    @Bean
    JobScheduler reviewJobScheduler(
            DataSource dataSource,
            OneTimeTask<Void> reviewTask,
            OneTimeTask<Void> regradeAnswerTask,
            FairReviewOrder order,
            ReviewSettings settings,
            DatabaseSettings database,
            MeterRegistry meters,
            Clock clock) {
        int workers = workers(settings.concurrency(), database.poolSize());
        if (workers < settings.concurrency()) {
            log.warn(
                    "review.concurrency {} is more than half the database pool ({} connections): {} reviews run at"
                            + " once, so that requests always find a connection. Raise DATABASE_POOL_SIZE to run more.",
                    settings.concurrency(),
                    database.poolSize(),
                    workers);
        }
        // a job scheduled inside the upload's transaction commits with it or not at all; a worker set free looks for
        // the next job at once (not only once half of them are free)
        Scheduler scheduler = JobSchedulers.create(
                        dataSource, List.of(reviewTask, regradeAnswerTask), "review", workers, 0.99)
                .pollingInterval(settings.pollInterval())
                // the next job is the one whose turn it is
                .enablePriority()
                .heartbeatInterval(settings.heartbeat())
                .missedHeartbeatsLimit(settings.missedHeartbeats())
                .shutdownMaxWait(settings.shutdownWait())
                // a failed attempt is logged once, by the reviewer, with the submission it concerns
                .failureLogging(LogLevel.DEBUG, false)
                .statsRegistry(new MicrometerStatsRegistry(meters, List.of(reviewTask, regradeAnswerTask)))
                .build();
        return new JobScheduler(scheduler, clock);
    }

    /**
     * How many reviews run at once: as configured, but at most half the database pool. Reviews query often, and
     * more of them than that starve the requests of connections (measured: 16 reviews on a pool of 10 made uploads
     * wait out the pool's timeout, docs/benchmarks.md).
     */
    static int workers(int concurrency, int poolSize) {
        return Math.min(concurrency, Math.max(1, poolSize / 2));
    }
}
