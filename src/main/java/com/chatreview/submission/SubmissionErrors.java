package com.chatreview.submission;

import com.chatreview.kernel.ServiceError;

/** The failures of the submission module, each a fact. */
public final class SubmissionErrors {

    private SubmissionErrors() {}

    public static final class SubmissionNotFound extends ServiceError {
        SubmissionNotFound(Object submissionId) {
            super(
                    Code.NOT_FOUND,
                    "No submission with id '" + submissionId + "' for this homework",
                    "Use the id returned by POST /v1/homeworks/{homeworkId}/submissions.");
        }
    }

    public static final class TransitionNotAllowed extends ServiceError {
        TransitionNotAllowed(SubmissionStatus from, SubmissionStatus to) {
            super(
                    Code.CONFLICT,
                    "A submission that is '" + from.value() + "' cannot be set to '" + to.value() + "'",
                    "A teacher sets 'approved' or 'needs_revision', and only to a status the submission does not"
                            + " already have; 'submitted' and 'reviewed' are set by the service.");
        }
    }

    public static final class RegradeRequestNotFound extends ServiceError {
        RegradeRequestNotFound(Object requestId) {
            super(
                    Code.NOT_FOUND,
                    "No regrade request with id '" + requestId + "' for this submission",
                    "Use the id of one of the submission's regradeRequests.");
        }
    }

    public static final class NotGradedYet extends ServiceError {
        NotGradedYet() {
            super(
                    Code.CONFLICT,
                    "The submission has no grade yet to look at again",
                    "Ask once the review has graded it (its review.state is 'done') or the teacher has given points.");
        }
    }

    public static final class TooManyOpenRegradeRequests extends ServiceError {
        TooManyOpenRegradeRequests() {
            super(
                    Code.CONFLICT,
                    "The submission has " + RegradeRequest.MAX_OPEN + " regrade requests the teacher has not answered",
                    "Wait for the teacher's answer to one of them before asking again.");
        }
    }

    public static final class RegradeRequestAnswered extends ServiceError {
        RegradeRequestAnswered() {
            super(
                    Code.CONFLICT,
                    "The regrade request has an answer already",
                    "An answer is given once; to change the points, decide on the submission again (PATCH"
                            + " /v1/homeworks/{homeworkId}/submissions/{submissionId}).");
        }
    }

    public static final class ReviewNotFailed extends ServiceError {
        ReviewNotFailed(ReviewProgress.State state) {
            super(
                    Code.CONFLICT,
                    "The submission's review is '" + state.value() + "', not 'failed'",
                    state == ReviewProgress.State.WAITING_FOR_BUDGET
                            ? "Only a failed review is retried; this one waits for an AI budget and runs by itself"
                                    + " once the month resets or the budget is raised (PUT"
                                    + " /admin/v1/tenants/{tenantId}/budget)."
                            : "Only a failed review is retried; a pending one runs on its own, a done one is kept.");
        }
    }
}
