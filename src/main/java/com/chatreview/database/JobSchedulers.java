package com.chatreview.database;

import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.SchedulerBuilder;
import com.github.kagkarlsson.scheduler.SchedulerName;
import com.github.kagkarlsson.scheduler.jdbc.PostgreSqlJdbcCustomization;
import com.github.kagkarlsson.scheduler.task.Task;
import java.util.List;
import java.util.concurrent.Executors;
import javax.sql.DataSource;
import org.springframework.jdbc.datasource.TransactionAwareDataSourceProxy;

/**
 * Where every durable job scheduler of the service (db-scheduler) starts, so that all of them pick jobs the same,
 * bounded way.
 *
 * <p>A node picks due jobs with {@code SELECT ... FOR UPDATE SKIP LOCKED LIMIT n} and then marks those rows picked, in
 * one transaction (db-scheduler's "generic" lock-and-fetch), never with its PostgreSQL single statement {@code UPDATE
 * ... WHERE (name, instance) IN (SELECT ... FOR UPDATE SKIP LOCKED LIMIT n)}. That statement's LIMIT binds the
 * sub-select, not the update: with some plans PostgreSQL runs the sub-select again for each row it updates, skips the
 * rows this very statement has just updated, and so marks far more than n. Seen in the test suite on the embedded
 * PostgreSQL 18: one poll of a node with 4 review workers picked all 200 waiting reviews, and ran them at once. Two
 * statements cost one more round trip per poll, not per job.
 */
public final class JobSchedulers {

    private JobSchedulers() {}

    /**
     * A scheduler of these tasks on the service's database, polling with lock-and-fetch, its jobs run on {@code
     * threads} virtual threads named after it, and known to the others as this host and process. A job scheduled
     * inside a transaction (through the proxy) commits with it or not at all.
     *
     * @param name the module's jobs ("review", "privacy"): the threads' prefix and the scheduler name's suffix
     */
    public static SchedulerBuilder create(
            DataSource dataSource, List<Task<?>> tasks, String name, int threads, double lowerLimitFractionOfThreads) {
        return Scheduler.create(new TransactionAwareDataSourceProxy(dataSource), tasks)
                .jdbcCustomization(new PostgreSqlJdbcCustomization(true, false))
                .pollUsingLockAndFetch(lowerLimitFractionOfThreads, 1.0)
                .schedulerName(new SchedulerName.Fixed(new SchedulerName.Hostname().getName() + "-"
                        + ProcessHandle.current().pid() + "-" + name))
                .threads(threads)
                .executorService(Executors.newThreadPerTaskExecutor(
                        Thread.ofVirtual().name(name + "-", 0).factory()));
    }
}
