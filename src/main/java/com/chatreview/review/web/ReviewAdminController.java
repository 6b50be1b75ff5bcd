package com.chatreview.review.web;

import com.chatreview.review.Reviews;
import com.chatreview.submission.ReviewProgress;
import com.chatreview.submission.Submission;
import com.chatreview.submission.SubmissionId;
import com.chatreview.tenancy.TenantId;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/** The operator's retry of a review that failed for good (behind {@code X-Admin-Token}, like all of /admin). */
@RestController
@Tag(name = "Admin")
@SecurityRequirement(name = "admin-token")
class ReviewAdminController {

    private final Reviews reviews;

    ReviewAdminController(Reviews reviews) {
        this.reviews = reviews;
    }

    record ReviewStateBody(
            String state,
            @JsonProperty("failed_attempts") int failedAttempts,
            @Nullable String error) {
        static ReviewStateBody of(ReviewProgress review) {
            return new ReviewStateBody(review.state().value(), review.failedAttempts(), review.error());
        }
    }

    record RetriedReview(@JsonProperty("submission_id") String submissionId, ReviewStateBody review) {}

    @PostMapping("/admin/v1/tenants/{tenantId}/submissions/{submissionId}/review")
    @Operation(
            summary = "Retry a submission's review that failed for good",
            description = "202: the review is queued again. 404: no such submission of the tenant. 409: the review"
                    + " is pending, waiting for a budget, or done.")
    ResponseEntity<RetriedReview> retry(@PathVariable UUID tenantId, @PathVariable UUID submissionId) {
        Submission submission = reviews.retry(TenantId.of(tenantId), SubmissionId.of(submissionId));
        return ResponseEntity.status(HttpStatus.ACCEPTED)
                .body(new RetriedReview(submission.id().toString(), ReviewStateBody.of(submission.review())));
    }
}
