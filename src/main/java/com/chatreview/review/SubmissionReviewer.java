package com.chatreview.review;

import static com.chatreview.usage.UsageKind.REVIEW;

import com.chatreview.assistant.Assistant;
import com.chatreview.assistant.AssistantReply;
import com.chatreview.assistant.Review;
import com.chatreview.chat.ChatErrors.ChatNotFound;
import com.chatreview.chat.NewMessage;
import com.chatreview.conversation.OpenTurn;
import com.chatreview.conversation.ServiceTurn;
import com.chatreview.conversation.ServiceTurns;
import com.chatreview.grading.ReviewRequest;
import com.chatreview.homework.Homework;
import com.chatreview.homework.HomeworkCatalog;
import com.chatreview.moderation.SafetyCategory;
import com.chatreview.moderation.SafetyFlags;
import com.chatreview.moderation.SafetyScreener;
import com.chatreview.moderation.Screening;
import com.chatreview.submission.FileText;
import com.chatreview.submission.ReviewOutcome;
import com.chatreview.submission.ReviewProgress;
import com.chatreview.submission.Submission;
import com.chatreview.submission.SubmissionId;
import com.chatreview.submission.SubmissionsForReview;
import com.chatreview.tenancy.TenantId;
import com.chatreview.testrun.TestRun;
import com.chatreview.testrun.TestRunner;
import com.chatreview.usage.BudgetSpent;
import com.chatreview.usage.UsageBudgets;
import com.chatreview.usage.UsageKind;
import com.chatreview.usage.UsageMeter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Instant;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * One attempt at a submission's review, as the job runs it: the review chat gets a user message naming the files,
 * then the assistant's review streams into it; the review message and the submission's analysis and grade commit
 * together. An attempt that finds the review done (the job ran again after a crash) does nothing; one that finds
 * its question stored by an earlier attempt answers it without storing it again.
 */
@Component
class SubmissionReviewer {

    private static final Logger log = LoggerFactory.getLogger(SubmissionReviewer.class);

    /** The {@code client_message_id} of a submission's review request: one per submission, however many runs. */
    static String questionId(SubmissionId submissionId) {
        return "review:" + submissionId;
    }

    /** What of a submission's files a run of the tests is given: as much as a run may write. */
    private static final long MAX_TEST_INPUT_BYTES = 16L << 20;

    private final SubmissionsForReview submissions;
    private final TestRunner testRunner;
    private final HomeworkCatalog homeworks;
    private final Assistant assistant;
    private final ServiceTurns turns;
    private final ReviewSettings settings;
    private final Timer duration;
    private final MeterRegistry meters;
    private final UsageMeter usage;
    private final UsageBudgets budgets;
    private final TransactionTemplate transaction;
    private final SafetyScreener screener;
    private final SafetyFlags flags;

    SubmissionReviewer(
            SubmissionsForReview submissions,
            TestRunner testRunner,
            HomeworkCatalog homeworks,
            Assistant assistant,
            ServiceTurns turns,
            ReviewSettings settings,
            MeterRegistry meters,
            UsageMeter usage,
            UsageBudgets budgets,
            PlatformTransactionManager transactions,
            SafetyScreener screener,
            SafetyFlags flags) {
        this.screener = screener;
        this.flags = flags;
        this.submissions = submissions;
        this.testRunner = testRunner;
        this.homeworks = homeworks;
        this.assistant = assistant;
        this.turns = turns;
        this.settings = settings;
        this.meters = meters;
        this.usage = usage;
        this.budgets = budgets;
        this.transaction = new TransactionTemplate(transactions);
        this.duration = Timer.builder("reviews.duration")
                .description("One attempt at a submission's review, from its job's start to its stored review")
                .register(meters);
    }

    /**
     * Reviews the submission, unless it is gone or its review is no longer to be done. Throws when it failed, and
     * {@link WaitingForBudget} when an AI budget keeps it from starting.
     */
    void review(SubmissionId submissionId) {
        Optional<Submission> pending = submissions
                .find(submissionId)
                .filter(found -> found.review().state() == ReviewProgress.State.PENDING
                        || found.review().state() == ReviewProgress.State.WAITING_FOR_BUDGET);
        if (pending.isEmpty()) {
            return;
        }
        Submission submission = pending.get();
        TenantId tenant = submission.tenantId();
        Optional<Homework> homework = homeworks.find(tenant, submission.homeworkId());
        if (homework.isEmpty()) {
            return;
        }
        Optional<BudgetSpent> spent = budgets.spent(tenant, submission.studentId(), UsageKind.REVIEW);
        if (spent.isPresent()) {
            submissions.waitForBudget(submissionId);
            meters.counter("reviews.budget_waits").increment();
            throw new WaitingForBudget(spent.get().resetsAt());
        }
        if (submission.review().state() == ReviewProgress.State.WAITING_FOR_BUDGET) {
            submissions.budgetAllows(submissionId);
        }
        try {
            duration.record(() -> review(submission, homework.get()));
            meters.counter("reviews.completed").increment();
        } catch (ReviewStoredAlready overlapped) {
            log.info("{}; this attempt stored nothing", overlapped.getMessage());
        }
    }

    private void review(Submission submission, Homework homework) {
        Optional<TestRun> tests = tests(submission, homework);
        List<FileText> files = submissions.texts(submission, settings.maxCharsPerFile());
        ReviewRequest request = ReviewMaterial.request(homework, files, settings.maxCharsTotal(), tests.orElse(null));
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("user_id", submission.studentId());
        metadata.put("kind", "review_request");
        metadata.put("submission_id", submission.id().toString());
        NewMessage question =
                NewMessage.fromUser(ReviewMaterial.question(homework, files), metadata, questionId(submission.id()));
        ServiceTurn turn =
                new ServiceTurn(submission.tenantId(), submission.chatId(), submission.studentId(), question, REVIEW);
        Optional<OpenTurn> opened;
        try {
            opened = turns.open(turn);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("The review was interrupted (the node is stopping)", e);
        }
        if (opened.isEmpty()) {
            recordWithoutChat(submission, assistant.review(request, token -> {}));
            return;
        }
        try (OpenTurn chat = opened.get()) {
            Review review;
            try {
                review = assistant.review(request, chat::token);
            } catch (RuntimeException failure) {
                chat.failed(failure);
                throw failure;
            }
            try {
                Screening screened = screened(files);
                transaction.executeWithoutResult(status -> {
                    chat.store(review.reply());
                    record(submission.id(), review);
                    // to the school, never to the grade: the review above has not seen it
                    flags.record(
                            submission.tenantId(),
                            submission.chatId(),
                            submission.studentId(),
                            chat.questionId(),
                            screened);
                });
            } catch (ChatNotFound deleted) {
                recordWithoutChat(submission, review);
            } catch (RuntimeException failure) {
                chat.failed(failure);
                throw failure;
            }
        }
    }

    /** What the safety screening finds in the files' texts (docs/safety.md, Handed-in files). */
    private Screening screened(List<FileText> files) {
        Set<SafetyCategory> found = EnumSet.noneOf(SafetyCategory.class);
        Screening any = null;
        for (FileText file : files) {
            if (file.text() != null) {
                Screening screening = screener.screenDocument(file.text().text());
                found.addAll(screening.categories());
                any = any == null || screening.unavailable() != null ? screening : any;
            }
        }
        if (any == null) {
            return Screening.clear("none");
        }
        Screening all = Screening.of(found, any.screenedBy());
        return any.unavailable() == null ? all : all.fellBack(any.unavailable());
    }

    /**
     * What the homework's tests came to against the submission: run now, or by an earlier attempt (a retry after the
     * AI failed does not run them again; a node that died mid-run stored nothing, so the run starts over).
     */
    private Optional<TestRun> tests(Submission submission, Homework homework) {
        if (submission.tests() != null) {
            return Optional.of(submission.tests());
        }
        Optional<TestRun> run;
        try {
            run = testRunner.run(homework, submissions.contents(submission, MAX_TEST_INPUT_BYTES));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("The tests' run was interrupted (the node is stopping)", e);
        }
        return run.flatMap(done -> submissions.recordTests(submission.id(), done));
    }

    /**
     * The review chat is gone: the review is stored on the submission alone, and its tokens are counted under the
     * submission's id (there is no review message to count them with).
     */
    private void recordWithoutChat(Submission submission, Review review) {
        log.info("The review chat of submission {} is gone; the review is stored without it", submission.id());
        transaction.executeWithoutResult(status -> {
            record(submission.id(), review);
            AssistantReply.Usage used = review.reply().usage();
            usage.record(
                    submission.tenantId(),
                    submission.chatId().value(),
                    submission.id().value(),
                    submission.studentId(),
                    REVIEW,
                    used.promptTokens(),
                    used.completionTokens(),
                    used.totalTokens(),
                    used.estimated());
        });
    }

    /** Throws when another attempt stored the review meanwhile, so that what this one stores rolls back. */
    private void record(SubmissionId submissionId, Review review) {
        ReviewOutcome outcome = new ReviewOutcome(review.criteria(), review.findings(), review.flags());
        if (!submissions.recordReview(submissionId, review.grade(), review.analysis(), outcome)) {
            throw new ReviewStoredAlready(submissionId);
        }
    }

    /** The operator learns of each failed attempt from the submission itself and from the metrics. */
    void attemptFailed(SubmissionId submissionId, String reason) {
        log.warn("A review attempt of submission {} failed: {}", submissionId, reason);
        submissions.recordFailedAttempt(submissionId, reason);
    }

    void gaveUp(SubmissionId submissionId, String reason) {
        log.error("The review of submission {} failed for good: {}", submissionId, reason);
        submissions.recordGaveUp(submissionId, reason);
        meters.counter("reviews.failed").increment();
    }

    /** An AI budget keeps the review from starting until {@code resetsAt}, or until it is raised. */
    static final class WaitingForBudget extends RuntimeException {

        private final Instant resetsAt;

        WaitingForBudget(Instant resetsAt) {
            super("an AI budget is spent until " + resetsAt, null, false, false);
            this.resetsAt = resetsAt;
        }

        Instant resetsAt() {
            return resetsAt;
        }
    }

    /**
     * Two attempts overlapped (a node stopping streams its attempt on while the job is already retried elsewhere)
     * and the other one stored the review first: this one ends without a second review message.
     */
    private static final class ReviewStoredAlready extends RuntimeException {

        ReviewStoredAlready(SubmissionId submissionId) {
            super("The review of submission " + submissionId + " was stored by another attempt meanwhile");
        }
    }
}
