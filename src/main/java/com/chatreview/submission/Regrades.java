package com.chatreview.submission;

import com.chatreview.database.Sql;
import com.chatreview.homework.HomeworkId;
import com.chatreview.kernel.InvalidInput;
import com.chatreview.submission.SubmissionErrors.NotGradedYet;
import com.chatreview.submission.SubmissionErrors.RegradeRequestAnswered;
import com.chatreview.submission.SubmissionErrors.RegradeRequestNotFound;
import com.chatreview.submission.SubmissionErrors.SubmissionNotFound;
import com.chatreview.submission.SubmissionErrors.TooManyOpenRegradeRequests;
import com.chatreview.tenancy.TenantId;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Regrade requests (docs/api.md, Regrade requests): the submission's student asks the teacher to look again at a
 * criterion, or the whole grade; the teacher answers. A regrade is the teacher's work, not a new AI review: nothing
 * is counted as AI usage.
 */
@Service
public class Regrades {

    private final Submissions submissions;
    private final RegradeRequests requests;
    private final ApplicationEventPublisher events;
    private final Clock clock;

    Regrades(Submissions submissions, RegradeRequests requests, ApplicationEventPublisher events, Clock clock) {
        this.submissions = submissions;
        this.requests = requests;
        this.events = events;
        this.clock = clock;
    }

    /**
     * The student asks for a regrade of a criterion ({@code null}: of the whole grade).
     *
     * @throws InvalidInput when the student is not the submission's, or the criterion not one it was graded on
     * @throws NotGradedYet before the review or the teacher has graded it
     * @throws TooManyOpenRegradeRequests when {@value RegradeRequest#MAX_OPEN} are waiting for an answer
     */
    @Transactional
    public RegradeRequest request(
            TenantId tenantId,
            HomeworkId homeworkId,
            SubmissionId submissionId,
            String studentId,
            @Nullable String criterionId,
            String message) {
        // locked: two requests at once are counted one after the other
        Submission submission = submissions
                .find(tenantId.value(), homeworkId, submissionId, true)
                .orElseThrow(() -> new SubmissionNotFound(submissionId));
        if (!submission.studentId().equals(studentId)) {
            throw InvalidInput.field(
                    "studentId",
                    "is not the student who handed in this submission",
                    "Only the submission's own student asks for its regrade: send their studentId.");
        }
        if (!submission.graded()) {
            throw new NotGradedYet();
        }
        if (criterionId != null
                && submission.criteria().stream()
                        .noneMatch(criterion -> criterion.score().criterionId().equals(criterionId))) {
            throw InvalidInput.field(
                    "criterionId",
                    "is not a criterion the submission was graded on",
                    "Use a criterionId of the submission's criteria, or leave it out for the whole grade.");
        }
        if (requests.openCount(submissionId) >= RegradeRequest.MAX_OPEN) {
            throw new TooManyOpenRegradeRequests();
        }
        RegradeRequest request = new RegradeRequest(
                UUID.randomUUID(),
                submissionId,
                criterionId,
                message,
                RegradeRequest.State.OPEN,
                null,
                now(),
                null,
                null);
        requests.insert(request);
        submissions
                .find(submissionId)
                .map(changed -> new SubmissionChanged.RegradeRequested(changed, request.id()))
                .ifPresent(events::publishEvent);
        return request;
    }

    /**
     * The teacher's answer, once; it goes into the student's review chat.
     *
     * @throws RegradeRequestAnswered when it has an answer already
     */
    @Transactional
    public RegradeRequest answer(
            TenantId tenantId,
            HomeworkId homeworkId,
            SubmissionId submissionId,
            UUID requestId,
            String answer,
            @Nullable String teacherId) {
        submissions
                .find(tenantId.value(), homeworkId, submissionId, false)
                .orElseThrow(() -> new SubmissionNotFound(submissionId));
        RegradeRequest request =
                requests.find(submissionId, requestId, true).orElseThrow(() -> new RegradeRequestNotFound(requestId));
        if (!requests.answer(request.id(), answer, teacherId, now())) {
            throw new RegradeRequestAnswered();
        }
        submissions
                .find(submissionId)
                .map(changed -> new SubmissionChanged.RegradeAnswered(changed, requestId))
                .ifPresent(events::publishEvent);
        return requests.find(submissionId, requestId, false).orElseThrow();
    }

    /** A request as it is now, whatever its tenant: for the service's own work on it (posting the answer). */
    public Optional<RegradeRequest> find(SubmissionId submissionId, UUID requestId) {
        return requests.find(submissionId, requestId, false);
    }

    /** Whether the answer is in the review chat already. */
    public boolean answerPosted(UUID requestId) {
        return requests.inChat(requestId);
    }

    /** The answer is in the review chat as this message (in the transaction that stored it). */
    public void answerPostedAs(UUID requestId, UUID messageId) {
        requests.postedAs(requestId, messageId);
    }

    private Instant now() {
        return Sql.now(clock);
    }
}
