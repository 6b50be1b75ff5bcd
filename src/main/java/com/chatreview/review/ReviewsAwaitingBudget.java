package com.chatreview.review;

import com.chatreview.submission.SubmissionsForReview;
import com.chatreview.usage.BudgetChanged;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * Reviews that waited for a budget run as soon as it is set again: their jobs are due at once (on every node: the
 * change is in the jobs' table), and each checks the budget anew as it starts, waiting again if it is still spent.
 */
@Component
class ReviewsAwaitingBudget {

    private final SubmissionsForReview submissions;
    private final FairReviewOrder order;
    private final ReviewScheduler scheduler;

    ReviewsAwaitingBudget(SubmissionsForReview submissions, FairReviewOrder order, ReviewScheduler scheduler) {
        this.submissions = submissions;
        this.order = order;
        this.scheduler = scheduler;
    }

    @EventListener
    void budgetChanged(BudgetChanged changed) {
        if (order.dueNow(submissions.waitingForBudget(changed.tenant())) > 0) {
            scheduler.checkNow();
        }
    }
}
