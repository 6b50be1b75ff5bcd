package com.chatreview.review;

import com.chatreview.submission.SubmissionsForReview;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * The reviews of the whole cluster, as gauges: queued (due, waiting for a worker), running (picked by a node),
 * waiting for a budget. Read from the database at most every {@link #FRESH} per node, whatever scrapes them.
 */
@Component
class ReviewQueueMetrics {

    static final Duration FRESH = Duration.ofSeconds(5);

    private record Counts(long queued, long running, long waitingForBudget, long readAt) {}

    private final JdbcClient jdbc;
    private final SubmissionsForReview submissions;
    private final AtomicReference<Counts> latest;

    ReviewQueueMetrics(JdbcClient jdbc, SubmissionsForReview submissions, MeterRegistry meters) {
        this.jdbc = jdbc;
        this.submissions = submissions;
        // read at the first scrape: as if read long enough ago (nanoTime differences only, never overflowing)
        this.latest = new AtomicReference<>(new Counts(0, 0, 0, System.nanoTime() - 2 * FRESH.toNanos()));
        Gauge.builder("reviews.queued", this, self -> self.counts().queued())
                .description("Reviews due and waiting for a worker, in the whole cluster")
                .register(meters);
        Gauge.builder("reviews.running", this, self -> self.counts().running())
                .description("Reviews a node is running, in the whole cluster")
                .register(meters);
        Gauge.builder("reviews.waiting_for_budget", this, self -> self.counts().waitingForBudget())
                .description("Reviews waiting for an AI budget, in the whole cluster")
                .register(meters);
    }

    private Counts counts() {
        Counts counts = latest.get();
        long now = System.nanoTime();
        if (now - counts.readAt() < FRESH.toNanos()) {
            return counts;
        }
        try {
            Counts read = jdbc.sql("""
                            SELECT count(*) FILTER (WHERE NOT picked AND execution_time <= now()) AS queued,
                                   count(*) FILTER (WHERE picked) AS running
                            FROM scheduled_tasks WHERE task_name = :task""")
                    .param("task", ReviewJobs.TASK)
                    .query((rs, row) -> new Counts(
                            rs.getLong("queued"), rs.getLong("running"), submissions.waitingForBudgetCount(), now))
                    .single();
            latest.set(read);
            return read;
        } catch (RuntimeException unreachable) {
            // the database is down: the gauges keep their last values (database_reachable says why)
            return counts;
        }
    }
}
