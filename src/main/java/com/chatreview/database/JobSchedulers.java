package com.chatreview.database;

import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.SchedulerBuilder;
import com.github.kagkarlsson.scheduler.jdbc.PostgreSqlJdbcCustomization;
import com.github.kagkarlsson.scheduler.task.Task;
import java.util.List;
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
     * A scheduler of these tasks on the service's database, polling with lock-and-fetch. A job scheduled inside a
     * transaction (through the proxy) commits with it or not at all.
     */
    public static SchedulerBuilder create(
            DataSource dataSource, List<Task<?>> tasks, double lowerLimitFractionOfThreads) {
        return Scheduler.create(new TransactionAwareDataSourceProxy(dataSource), tasks)
                .jdbcCustomization(new PostgreSqlJdbcCustomization(true, false))
                .pollUsingLockAndFetch(lowerLimitFractionOfThreads, 1.0);
    }
}
