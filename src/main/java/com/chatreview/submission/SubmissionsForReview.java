package com.chatreview.submission;

import com.chatreview.chat.ChatId;
import com.chatreview.database.Sql;
import com.chatreview.submission.extraction.TextExtraction;
import com.chatreview.tenancy.TenantId;
import com.chatreview.testrun.TestRun;
import java.io.ByteArrayInputStream;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * The review worker's access to a submission by its id alone, checking no tenant: the job that reviews it knows the
 * submission, not who uploaded it. Whatever acts for a tenant goes through {@link SubmissionManagement}, which asks
 * for the tenant on every call.
 */
@Service
public class SubmissionsForReview {

    private final Submissions submissions;
    private final TextExtraction extraction;
    private final ApplicationEventPublisher events;
    private final Clock clock;

    SubmissionsForReview(
            Submissions submissions, TextExtraction extraction, ApplicationEventPublisher events, Clock clock) {
        this.submissions = submissions;
        this.extraction = extraction;
        this.events = events;
        this.clock = clock;
    }

    /** The submission, whatever its tenant; empty when deleted. */
    public Optional<Submission> find(SubmissionId submissionId) {
        return submissions.find(submissionId);
    }

    /**
     * The text of each of the submission's files, in upload order. A file's text is extracted the first time it is
     * asked for (at most {@code maxCharsPerFile} characters) and kept, so that later questions in the review chat
     * do not extract it again.
     */
    public List<FileText> texts(Submission submission, int maxCharsPerFile) {
        List<FileText> texts = new ArrayList<>();
        for (FileText stored : submissions.fileTexts(submission.id())) {
            if (stored.text() != null) {
                texts.add(stored);
                continue;
            }
            SubmittedFile file = stored.file();
            ExtractedText text = extraction.extract(
                    submission.tenantId().value(),
                    file.fileName(),
                    file.contentType(),
                    new ByteArrayInputStream(submissions.content(file.id())),
                    maxCharsPerFile);
            submissions.storeText(file.id(), text);
            texts.add(new FileText(file, text));
        }
        return texts;
    }

    /**
     * The bytes of the submission's files by name, in upload order, as long as they fit in {@code maxBytes} together:
     * what a run of the homework's tests is given. A file that would not fit is left out.
     */
    public Map<String, byte[]> contents(Submission submission, long maxBytes) {
        Map<String, byte[]> contents = new LinkedHashMap<>();
        long left = maxBytes;
        for (FileText stored : submissions.fileTexts(submission.id())) {
            SubmittedFile file = stored.file();
            if (file.size() <= left) {
                contents.put(file.fileName(), submissions.content(file.id()));
                left -= file.size();
            }
        }
        return contents;
    }

    /**
     * Stores what the homework's tests came to, once: when two attempts of the review overlapped, the first run
     * stored stands, and is returned to both.
     */
    public Optional<TestRun> recordTests(SubmissionId submissionId, TestRun run) {
        return submissions.recordTests(submissionId, run);
    }

    /**
     * Stores the AI's analysis, grade, criteria, findings and flags, once: {@code submitted} becomes {@code reviewed}; a status the teacher
     * already decided stays (docs/api.md, Homework). Joins the caller's transaction, so that it commits with the review
     * message of the chat.
     *
     * @return false when the submission had its review already (a job run twice stores nothing twice)
     */
    @Transactional
    public boolean recordReview(SubmissionId submissionId, String grade, String analysis, ReviewOutcome outcome) {
        boolean recorded = submissions.recordReview(submissionId, grade, analysis, outcome, now());
        if (recorded) {
            submissions.find(submissionId).map(SubmissionChanged.Reviewed::new).ifPresent(events::publishEvent);
        }
        return recorded;
    }

    /** An attempt of the review failed and will be tried again. */
    public void recordFailedAttempt(SubmissionId submissionId, String error) {
        submissions.recordFailedAttempt(submissionId, error);
    }

    /**
     * The review failed for good: the analysis says so and why, the review is {@code failed}, the status stays
     * {@code submitted} (or what the teacher decided).
     */
    public void recordGaveUp(SubmissionId submissionId, String error) {
        submissions.recordFailedAttempt(submissionId, error);
        submissions.recordReviewGaveUp(
                submissionId,
                "The automatic review could not be completed: " + error
                        + ". The submission is stored; an operator can retry the review.",
                now());
        submissions.find(submissionId).map(SubmissionChanged.ReviewFailed::new).ifPresent(events::publishEvent);
    }

    /** The submission whose review chat this is, if it is one (of the tenant's). */
    public Optional<Submission> reviewedIn(TenantId tenant, ChatId chatId) {
        return submissions.findByChat(tenant.value(), chatId);
    }

    /** The review's job found an AI budget spent; the review waits for it ({@code waiting_for_budget}). */
    public void waitForBudget(SubmissionId submissionId) {
        submissions.waitForBudget(submissionId, now());
    }

    /** The budget allows the review that waited: it runs now ({@code pending}). */
    public void budgetAllows(SubmissionId submissionId) {
        submissions.budgetAllows(submissionId, now());
    }

    /** The tenant's reviews waiting for a budget. */
    public List<SubmissionId> waitingForBudget(TenantId tenant) {
        return submissions.waitingForBudget(tenant.value());
    }

    /** Reviews waiting for a budget, of every tenant (an operator's gauge). */
    public long waitingForBudgetCount() {
        return submissions.waitingForBudgetCount();
    }

    private Instant now() {
        return Sql.now(clock);
    }
}
