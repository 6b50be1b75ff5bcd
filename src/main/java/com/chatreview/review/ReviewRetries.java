package com.chatreview.review;

import com.chatreview.submission.SubmissionId;
import com.github.kagkarlsson.scheduler.task.Execution;
import com.github.kagkarlsson.scheduler.task.ExecutionComplete;
import com.github.kagkarlsson.scheduler.task.ExecutionOperations;
import com.github.kagkarlsson.scheduler.task.FailureHandler;
import java.time.Clock;
import java.time.Instant;
import java.util.UUID;
import org.springframework.transaction.support.TransactionTemplate;

/** What a failed attempt leads to: another one later, or, after the last, a review that failed for good. */
record ReviewRetries(
        SubmissionReviewer reviewer,
        FairReviewOrder order,
        ReviewSettings settings,
        TransactionTemplate transaction,
        Clock clock) {

    /**
     * A failed attempt waits and runs again, each wait longer than the one before. A review that an AI budget kept
     * from starting is no failed attempt: it waits until the budget resets (or is raised, {@link
     * ReviewsAwaitingBudget}), at the back of its tenant's line, and its retries start again from the first.
     */
    void failed(ExecutionComplete complete, ExecutionOperations<Void> operations) {
        if (complete.getCause().orElse(null) instanceof SubmissionReviewer.WaitingForBudget waiting) {
            Execution execution = complete.getExecution();
            operations.reschedule(
                    ExecutionComplete.success(execution, complete.getTimeDone(), complete.getTimeDone()),
                    waiting.resetsAt());
            order.backOfLine(SubmissionId.of(UUID.fromString(execution.taskInstance.getId())));
            return;
        }
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
        Instant now = clock.instant();
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
        SubmissionId submissionId = SubmissionId.of(UUID.fromString(execution.taskInstance.getId()));
        if (execution.consecutiveFailures + 1 >= settings.maxAttempts()) {
            transaction.executeWithoutResult(status -> {
                reviewer.gaveUp(submissionId, reason);
                operations.remove();
            });
        } else {
            reviewer.attemptFailed(submissionId, reason);
            retry.run();
            order.leaveLine(submissionId);
        }
    }
}
