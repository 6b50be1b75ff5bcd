package com.chatreview.submission;

import com.chatreview.chat.Chat;
import com.chatreview.chat.ChatManagement;
import com.chatreview.chat.NewChat;
import com.chatreview.database.Sql;
import com.chatreview.homework.Homework;
import com.chatreview.homework.HomeworkCatalog;
import com.chatreview.homework.HomeworkId;
import com.chatreview.kernel.InvalidInput;
import com.chatreview.kernel.Page;
import com.chatreview.kernel.PageRequest;
import com.chatreview.storage.StorageUse;
import com.chatreview.storage.TenantStorage;
import com.chatreview.submission.SubmissionErrors.ReviewNotFailed;
import com.chatreview.submission.SubmissionErrors.SubmissionNotFound;
import com.chatreview.submission.SubmissionErrors.TransitionNotAllowed;
import com.chatreview.tenancy.TenantId;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.UUID;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Receiving submissions, reading them, and the teacher's decision on them, for a tenant: every call names the tenant
 * ({@link TenantId}). The review worker's access by submission id alone is {@link SubmissionsForReview}.
 */
@Service
public class SubmissionManagement {

    /** How many submissions {@link #forEachSubmissionOf} reads at once. */
    static final int BATCH = 20;

    private final Uploads uploads;
    private final Submissions submissions;
    private final HomeworkCatalog homeworks;
    private final ChatManagement chats;
    private final TenantStorage storage;
    private final ApplicationEventPublisher events;

    private final Clock clock;

    SubmissionManagement(
            Uploads uploads,
            Submissions submissions,
            HomeworkCatalog homeworks,
            ChatManagement chats,
            TenantStorage storage,
            ApplicationEventPublisher events,
            Clock clock) {
        this.clock = clock;
        this.storage = storage;
        this.uploads = uploads;
        this.submissions = submissions;
        this.homeworks = homeworks;
        this.chats = chats;
        this.events = events;
    }

    /** Checks the upload; nothing is stored yet. */
    public PreparedUpload prepare(String studentId, List<IncomingFile> files) {
        return uploads.prepare(studentId, files);
    }

    /**
     * Stores the submission, its files and its review chat in one transaction, and announces it for review.
     * When this returns, everything is committed (or, inside a caller's transaction, commits with it).
     */
    @Transactional
    public Submission receive(TenantId tenantId, HomeworkId homeworkId, PreparedUpload upload) {
        Homework homework = homeworks.homework(tenantId, homeworkId);
        storage.reserve(
                tenantId,
                upload.files().stream()
                        .mapToLong(PreparedUpload.PreparedFile::size)
                        .sum());
        SubmissionId submissionId = SubmissionId.random();
        // for clients that read the chat's config; the service finds a review chat's submission by the chat
        // (SubmissionsForReview.reviewedIn), not by these settings
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("kind", "homework_review");
        settings.put("homework_id", homework.id().toString());
        settings.put("submission_id", submissionId.toString());
        Chat chat = chats.create(
                tenantId, new NewChat(upload.studentId(), "Review: " + homework.assignmentId(), Map.of(), settings));
        Instant now = now();
        Submission submission = new Submission(
                submissionId,
                tenantId,
                homeworkId,
                upload.studentId(),
                chat.id(),
                SubmissionStatus.SUBMITTED,
                "",
                "",
                ReviewOutcome.NONE,
                null,
                now,
                now,
                List.of(),
                ReviewProgress.PENDING,
                List.of());
        submissions.insert(submission);
        List<SubmittedFile> stored = new ArrayList<>();
        int position = 0;
        for (PreparedUpload.PreparedFile file : upload.files()) {
            SubmittedFile record = new SubmittedFile(
                    UUID.randomUUID(), ++position, file.fileName(), file.contentType(), file.size(), file.sha256Hex());
            try (InputStream content = file.content().getInputStream()) {
                submissions.insertFile(submissionId, record, content, now);
            } catch (IOException e) {
                throw new UncheckedIOException("Could not read the uploaded file " + file.fileName(), e);
            }
            stored.add(record);
        }
        events.publishEvent(new SubmissionReceived(tenantId, submissionId, homeworkId, chat.id()));
        events.publishEvent(new SubmissionChanged.Created(submissionId));
        return submission.withFiles(stored);
    }

    /** What the tenant's files take, and what they may (the operator's view). */
    public StorageUse storage(TenantId tenantId) {
        return storage.use(tenantId);
    }

    /**
     * Gives the tenant a storage allowance of its own, or the default again ({@code null}). A smaller allowance than
     * what is stored refuses the next uploads; nothing stored is removed.
     */
    @Transactional
    public StorageUse allowStorage(TenantId tenantId, Long allowanceBytes) {
        if (allowanceBytes != null && allowanceBytes < 0) {
            throw InvalidInput.field(
                    "allowance_bytes", "must be 0 or more", "Give a number of bytes, or null for the default.");
        }
        return storage.allow(tenantId, allowanceBytes);
    }

    public Submission submission(TenantId tenantId, HomeworkId homeworkId, SubmissionId submissionId) {
        return submissions
                .find(tenantId.value(), homeworkId, submissionId, false)
                .orElseThrow(() -> new SubmissionNotFound(submissionId));
    }

    /**
     * Hands over each of the student's submissions to any homework, oldest first, with its files and decisions,
     * reading {@value #BATCH} at a time and holding no connection while {@code each} runs.
     */
    public void forEachSubmissionOf(TenantId tenantId, String studentId, Consumer<Submission> each) {
        Submission last = null;
        List<Submission> batch;
        do {
            batch = submissions.ofStudentAfter(tenantId.value(), studentId, last, BATCH);
            batch.forEach(each);
            last = batch.isEmpty() ? null : batch.getLast();
        } while (batch.size() == BATCH);
    }

    /**
     * Erases the submission with its files, decisions and review chat, for a user's erasure, in the transaction under
     * way (the erasure's unit): all of it or, when the review chat is held open (a review being written), nothing
     * ({@link com.chatreview.chat.ChatErrors.ChatDeletionBlocked}). The files' bytes go back to the tenant's storage.
     */
    @Transactional
    public ErasedSubmission erase(TenantId tenantId, Submission submission) {
        var files = submissions.delete(tenantId.value(), submission.id());
        files.ifPresent(deleted -> storage.release(tenantId, deleted.bytes()));
        OptionalInt messages = chats.erase(tenantId, submission.chatId());
        return new ErasedSubmission(
                files.isPresent(),
                files.map(Submissions.DeletedFiles::count).orElse(0),
                messages.isPresent(),
                messages.orElse(0));
    }

    /** Hands over each of the tenant's submissions created before {@code cutoff}, oldest first, {@value #BATCH} at a time. */
    public void forEachSubmissionCreatedBefore(TenantId tenantId, Instant cutoff, Consumer<Submission> each) {
        Submission last = null;
        List<Submission> batch;
        do {
            batch = submissions.createdBefore(tenantId.value(), cutoff, last, BATCH);
            batch.forEach(each);
            last = batch.isEmpty() ? null : batch.getLast();
        } while (batch.size() == BATCH);
    }

    public boolean hasSubmissionsOf(TenantId tenantId, String studentId) {
        return submissions.anyOfStudent(tenantId.value(), studentId);
    }

    /** The texts of the submission's files as the review reads them ({@code null} where none was extracted yet). */
    public List<FileText> fileTexts(Submission submission) {
        return submissions.fileTexts(submission.id());
    }

    /** The homework's submissions, of one student when {@code studentId} is given, newest first. */
    @Transactional(readOnly = true)
    public Page<Submission> submissions(
            TenantId tenantId, HomeworkId homeworkId, @Nullable String studentId, PageRequest page) {
        homeworks.homework(tenantId, homeworkId);
        String student = studentId == null || studentId.isBlank() ? null : studentId;
        long total = submissions.count(tenantId.value(), homeworkId, student);
        List<Submission> found = total == 0 ? List.of() : submissions.page(tenantId.value(), homeworkId, student, page);
        return new Page<>(found, total);
    }

    /**
     * The teacher's decision (docs/api.md, Homework): {@code approved} or {@code needs_revision}, from any status but the
     * one it names; recorded with who decided and from which status.
     *
     * @param decidedBy the teacher, as the client names them, or {@code null}
     * @param apiKeyId the key that made the request
     */
    @Transactional
    public Submission decide(
            TenantId tenantId,
            HomeworkId homeworkId,
            SubmissionId submissionId,
            SubmissionStatus to,
            String decidedBy,
            UUID apiKeyId) {
        Submission current = submissions
                .find(tenantId.value(), homeworkId, submissionId, true)
                .orElseThrow(() -> new SubmissionNotFound(submissionId));
        if (!to.teacherDecision() || current.status() == to) {
            throw new TransitionNotAllowed(current.status(), to);
        }
        submissions.decide(submissionId, current.status(), to, decidedBy, apiKeyId, now());
        events.publishEvent(new SubmissionChanged.Decided(submissionId));
        return submission(tenantId, homeworkId, submissionId);
    }

    /**
     * Puts a failed review back in the queue's hands for a new round of attempts (the operator's retry).
     *
     * @throws SubmissionNotFound when the tenant has no such submission
     * @throws ReviewNotFailed when the review is pending, waiting for a budget, or done
     */
    @Transactional
    public Submission reopenReview(TenantId tenantId, SubmissionId submissionId) {
        Submission submission = submissions
                .find(submissionId)
                .filter(found -> found.tenantId().equals(tenantId))
                .orElseThrow(() -> new SubmissionNotFound(submissionId));
        if (!submissions.reopenReview(submissionId, now())) {
            throw new ReviewNotFailed(submission.review().state());
        }
        return submissions.find(submissionId).orElseThrow();
    }

    private Instant now() {
        return Sql.now(clock);
    }
}
