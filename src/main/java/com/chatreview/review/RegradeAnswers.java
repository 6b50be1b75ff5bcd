package com.chatreview.review;

import com.chatreview.assistant.AssistantReply;
import com.chatreview.chat.ChatErrors.ChatNotFound;
import com.chatreview.chat.ChatMessage;
import com.chatreview.chat.NewMessage;
import com.chatreview.conversation.OpenTurn;
import com.chatreview.conversation.ServiceTurn;
import com.chatreview.conversation.ServiceTurns;
import com.chatreview.submission.GradedCriterion;
import com.chatreview.submission.RegradeRequest;
import com.chatreview.submission.Regrades;
import com.chatreview.submission.Submission;
import com.chatreview.submission.SubmissionChanged;
import com.chatreview.submission.SubmissionId;
import com.chatreview.submission.SubmissionsForReview;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.springframework.context.event.EventListener;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The teacher's answer to a regrade request goes into the student's review chat (docs/api.md, Regrade requests): a
 * durable job, scheduled in the transaction that stores the answer, posts the request as the student's message and
 * the answer after it, streamed to any open connection as a reply is; the answer is the teacher's, not the AI's
 * ({@code provider} {@code teacher}), and nothing is counted as AI usage. A job run again after a crash finds the
 * answer posted and does nothing.
 */
class RegradeAnswers {

    static final String TASK = "post-regrade-answer";

    private final SubmissionsForReview submissions;
    private final Regrades regrades;
    private final ServiceTurns turns;
    private final TransactionTemplate transaction;
    private final ReviewScheduler scheduler;

    RegradeAnswers(
            SubmissionsForReview submissions,
            Regrades regrades,
            ServiceTurns turns,
            PlatformTransactionManager transactions,
            ReviewScheduler scheduler) {
        this.submissions = submissions;
        this.regrades = regrades;
        this.turns = turns;
        this.transaction = new TransactionTemplate(transactions);
        this.scheduler = scheduler;
    }

    /** The job's id: the submission's and the request's. */
    static String jobId(SubmissionId submissionId, UUID requestId) {
        return submissionId + "/" + requestId;
    }

    @EventListener
    void answered(SubmissionChanged.RegradeAnswered answered) {
        scheduler.scheduleNow(TASK, jobId(answered.submissionId(), answered.requestId()));
    }

    /** Posts the answer of the job with this id, unless it is posted already or its chat is gone. */
    void post(String jobId) {
        String[] ids = jobId.split("/", 2);
        SubmissionId submissionId = SubmissionId.of(UUID.fromString(ids[0]));
        UUID requestId = UUID.fromString(ids[1]);
        Optional<Submission> found = submissions.find(submissionId);
        Optional<RegradeRequest> request = regrades.find(submissionId, requestId);
        if (found.isEmpty()
                || request.isEmpty()
                || request.get().state() != RegradeRequest.State.ANSWERED
                || regrades.answerPosted(requestId)) {
            return;
        }
        Submission submission = found.get();
        RegradeRequest answered = request.get();
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("user_id", submission.studentId());
        metadata.put("kind", "regrade_request");
        metadata.put("submission_id", submission.id().toString());
        metadata.put("regrade_request_id", answered.id().toString());
        NewMessage question =
                NewMessage.fromUser(question(submission, answered), metadata, "regrade-request:" + answered.id());
        Optional<OpenTurn> opened;
        try {
            opened = turns.open(new ServiceTurn(
                    submission.tenantId(), submission.chatId(), submission.studentId(), question, null));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Posting a regrade answer was interrupted (the node is stopping)", e);
        }
        if (opened.isEmpty()) {
            return; // the review chat was deleted: the answer stays on the submission
        }
        try (OpenTurn chat = opened.get()) {
            String content = answer(submission, answered);
            // the teacher's words arrive whole: nothing is being generated
            chat.token(content);
            AssistantReply reply = new AssistantReply(
                    content,
                    "teacher",
                    answered.answeredBy() == null ? "" : answered.answeredBy(),
                    "stop",
                    AssistantReply.Usage.reported(0, 0, 0));
            try {
                transaction.executeWithoutResult(status -> {
                    if (regrades.answerPosted(requestId)) {
                        throw new IllegalStateException("posted by another run meanwhile");
                    }
                    ChatMessage stored = chat.store(reply);
                    regrades.answerPostedAs(requestId, stored.id());
                });
            } catch (ChatNotFound deleted) {
                // deleted meanwhile: nothing is left to post into
            } catch (RuntimeException failure) {
                chat.failed(failure);
                throw failure;
            }
        }
    }

    private static String question(Submission submission, RegradeRequest request) {
        return "Regrade request about " + about(submission, request) + ": " + request.message();
    }

    private static String answer(Submission submission, RegradeRequest request) {
        StringBuilder text = new StringBuilder("**Your teacher answered your regrade request** about ")
                .append(about(submission, request))
                .append(":\n\n")
                .append(request.answer());
        Optional<GradedCriterion> criterion = criterion(submission, request);
        if (criterion.isPresent()) {
            GradedCriterion graded = criterion.get();
            text.append("\n\nYour points for “")
                    .append(graded.score().title())
                    .append("” are now ")
                    .append(graded.score().points())
                    .append(" of ")
                    .append(graded.score().maxPoints())
                    .append(
                            graded.gradedBy() == GradedCriterion.GradedBy.TEACHER
                                    ? ", your teacher's"
                                    : ", the review's")
                    .append(".");
        }
        if (!submission.grade().isEmpty()) {
            text.append(criterion.isPresent() ? " " : "\n\n")
                    .append("Your grade is ")
                    .append(submission.grade())
                    .append(".");
        }
        return text.toString();
    }

    private static String about(Submission submission, RegradeRequest request) {
        return criterion(submission, request)
                .map(criterion -> "“" + criterion.score().title() + "”")
                .orElse("the whole grade");
    }

    private static Optional<GradedCriterion> criterion(Submission submission, RegradeRequest request) {
        return submission.criteria().stream()
                .filter(criterion -> criterion.score().criterionId().equals(request.criterionId()))
                .findFirst();
    }
}
