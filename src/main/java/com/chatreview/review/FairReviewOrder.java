package com.chatreview.review;

import com.chatreview.database.Sql;
import com.chatreview.submission.SubmissionId;
import com.chatreview.tenancy.TenantId;
import java.time.Clock;
import java.util.List;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * The order in which waiting reviews start: round-robin by tenant, so that one tenant's backlog (a class uploading
 * at once, or a script) never makes another tenant's review wait for more than the reviews already running.
 *
 * <p>Every tenant has a line of waiting review jobs. db-scheduler picks due jobs by priority, highest first, then by
 * execution time; a waiting job's priority is minus its place in its tenant's line (-1 for the head), and a job
 * that moves up to the head of its line takes the time it got there as its execution time. So the heads of all
 * lines go first, in the order they reached the head, which is taking turns; the next of a tenant's jobs reaches
 * the head only when the one before it starts. A retry waiting out its backoff stands in no line (priority 0): once
 * due, it goes before the lines, having waited already.
 */
@Component
class FairReviewOrder {

    /** Places further back are all this one: the priority column is a smallint. */
    static final int LAST_PLACE = 30_000;

    private final JdbcClient jdbc;
    private final Clock clock;

    FairReviewOrder(JdbcClient jdbc, Clock clock) {
        this.jdbc = jdbc;
        this.clock = clock;
    }

    /** A job just scheduled goes to the back of its tenant's line (a job scheduled before keeps its place). */
    void joinLine(TenantId tenant, SubmissionId submissionId) {
        jdbc.sql("""
                        UPDATE scheduled_tasks
                        SET tenant_id = :tenant,
                            priority = -LEAST(:last, 1 + (SELECT count(*) FROM scheduled_tasks waiting
                                                          WHERE waiting.task_name = :task
                                                            AND waiting.tenant_id = :tenant
                                                            AND NOT waiting.picked
                                                            AND waiting.priority < 0))
                        WHERE task_name = :task AND task_instance = :instance AND NOT picked AND tenant_id IS NULL
                        """)
                .param("tenant", tenant.value())
                .param("last", LAST_PLACE)
                .param("task", ReviewJobs.TASK)
                .param("instance", submissionId.toString())
                .update();
    }

    /**
     * A job started: everyone behind it in its tenant's line moves up one place. The line is locked first, in one
     * order (by job): two of the tenant's jobs starting at once each move the whole line, and locking its rows in the
     * order a scan met them let each wait for the other (PostgreSQL then failed one of the two attempts: a deadlock,
     * seen in FairReviewsIntegrationTests).
     */
    void started(SubmissionId submissionId) {
        jdbc.sql("""
                        WITH line AS MATERIALIZED (
                            SELECT task_instance FROM scheduled_tasks
                            WHERE task_name = :task
                              AND NOT picked
                              AND priority < -1
                              AND tenant_id = (SELECT tenant_id FROM scheduled_tasks
                                               WHERE task_name = :task AND task_instance = :instance)
                            ORDER BY task_instance
                            FOR UPDATE)
                        UPDATE scheduled_tasks
                        SET priority = priority + 1,
                            execution_time = CASE WHEN priority = -2 THEN GREATEST(execution_time, :now)
                                                  ELSE execution_time END
                        WHERE task_name = :task
                          AND task_instance IN (SELECT task_instance FROM line)
                          AND NOT picked
                          AND priority < -1
                        """)
                .param("now", Sql.at(clock.instant()))
                .param("task", ReviewJobs.TASK)
                .param("instance", submissionId.toString())
                .update();
    }

    /** A review that waits for a budget goes to the back of its tenant's line. */
    void backOfLine(SubmissionId submissionId) {
        jdbc.sql("""
                        UPDATE scheduled_tasks job
                        SET priority = -LEAST(:last, 1 + (SELECT count(*) FROM scheduled_tasks waiting
                                                          WHERE waiting.task_name = :task
                                                            AND waiting.tenant_id = job.tenant_id
                                                            AND waiting.task_instance <> job.task_instance
                                                            AND NOT waiting.picked
                                                            AND waiting.priority < 0))
                        WHERE task_name = :task AND task_instance = :instance AND NOT picked""")
                .param("last", LAST_PLACE)
                .param("task", ReviewJobs.TASK)
                .param("instance", submissionId.toString())
                .update();
    }

    /** Reviews that waited for a budget are due now (it was raised). */
    int dueNow(List<SubmissionId> submissionIds) {
        if (submissionIds.isEmpty()) {
            return 0;
        }
        return jdbc.sql("""
                        UPDATE scheduled_tasks SET execution_time = :now
                        WHERE task_name = :task AND task_instance IN (:instances) AND NOT picked
                          AND execution_time > :now""")
                .param("now", Sql.at(clock.instant()))
                .param("task", ReviewJobs.TASK)
                .param(
                        "instances",
                        submissionIds.stream().map(SubmissionId::toString).toList())
                .update();
    }

    /** A failed attempt waits out its backoff outside the lines, and goes first once due. */
    void leaveLine(SubmissionId submissionId) {
        jdbc.sql("UPDATE scheduled_tasks SET priority = 0 WHERE task_name = :task AND task_instance = :instance")
                .param("task", ReviewJobs.TASK)
                .param("instance", submissionId.toString())
                .update();
    }
}
