package com.chatreview.submission;

import com.chatreview.chat.Chat;
import com.chatreview.chat.ChatManagement;
import com.chatreview.chat.NewChat;
import com.chatreview.database.Sql;
import com.chatreview.grading.Rubric;
import com.chatreview.grading.Verdict.CriterionScore;
import com.chatreview.homework.Homework;
import com.chatreview.homework.HomeworkCatalog;
import com.chatreview.homework.HomeworkId;
import com.chatreview.kernel.Batches;
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
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.Set;
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
                List.of(),
                null,
                List.of(),
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
        submissions.find(submissionId).map(SubmissionChanged.Created::new).ifPresent(events::publishEvent);
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
        Batches.forEach(BATCH, last -> submissions.ofStudentAfter(tenantId.value(), studentId, last, BATCH), each);
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
        Batches.forEach(BATCH, last -> submissions.createdBefore(tenantId.value(), cutoff, last, BATCH), each);
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
     * The homework's submissions of students whose ids start with {@code prefix} (an LMS's learners: {@code
     * lti:{platform}:}), newest first.
     */
    @Transactional(readOnly = true)
    public Page<Submission> submissionsOfStudentsStartingWith(
            TenantId tenantId, HomeworkId homeworkId, String prefix, PageRequest page) {
        homeworks.homework(tenantId, homeworkId);
        long total = submissions.countOfStudentsStartingWith(tenantId.value(), homeworkId, prefix);
        List<Submission> found = total == 0
                ? List.of()
                : submissions.pageOfStudentsStartingWith(tenantId.value(), homeworkId, prefix, page);
        return new Page<>(found, total);
    }

    /**
     * The teacher's decision (docs/api.md, The teacher's grade): {@code approved} or {@code needs_revision}, from any
     * status but the one it names unless it also changes points or the comment; points for criteria, which replace the
     * review's (and any earlier decision's) for them; recorded with who decided, from which status, and what changed.
     *
     * @param apiKeyId the key that made the request; {@code null} for a teacher's page in the LMS
     * @throws TransitionNotAllowed for a status the service sets, or the status the submission has when nothing else
     *     changes
     * @throws InvalidInput for points of a criterion the homework does not grade, or outside its range; before the
     *     review, for points that leave a criterion without any
     */
    @Transactional
    public Submission decide(
            TenantId tenantId,
            HomeworkId homeworkId,
            SubmissionId submissionId,
            TeacherDecision decision,
            @Nullable UUID apiKeyId) {
        Submission current = submissions
                .find(tenantId.value(), homeworkId, submissionId, true)
                .orElseThrow(() -> new SubmissionNotFound(submissionId));
        SubmissionStatus to = decision.status();
        if (!to.teacherDecision()) {
            throw new TransitionNotAllowed(current.status(), to);
        }
        Instant now = now();
        Homework homework = homeworks.homework(tenantId, homeworkId);
        List<TeacherPoints> given = checkedPoints(current, homework, decision, now);
        Map<String, GradedCriterion> before = new LinkedHashMap<>();
        current.criteria().forEach(criterion -> before.put(criterion.score().criterionId(), criterion));
        Map<String, TeacherPoints> earlier = new LinkedHashMap<>();
        current.teacherPoints().forEach(points -> earlier.put(points.criterionId(), points));
        List<Decision.PointsChange> changes = new ArrayList<>();
        for (TeacherPoints points : given) {
            GradedCriterion was = before.get(points.criterionId());
            TeacherPoints wasTeacher = earlier.get(points.criterionId());
            boolean same = wasTeacher != null
                    && wasTeacher.points() == points.points()
                    && Objects.equals(wasTeacher.comment(), points.comment());
            if (!same) {
                changes.add(new Decision.PointsChange(
                        points.criterionId(),
                        was == null ? null : was.score().points(),
                        points.points(),
                        points.comment()));
                earlier.put(points.criterionId(), points);
            }
        }
        String comment = decision.comment() == null || decision.comment().isBlank() ? null : decision.comment();
        boolean commentChanged = decision.comment() != null && !Objects.equals(comment, current.comment());
        if (current.status() == to && changes.isEmpty() && !commentChanged) {
            throw new TransitionNotAllowed(current.status(), to);
        }
        List<TeacherPoints> all = new ArrayList<>(earlier.values());
        List<String> order =
                homework.rubric().criteria().stream().map(Rubric.Criterion::id).toList();
        all.sort(Comparator.comparingInt(points -> order.indexOf(points.criterionId())));
        submissions.decide(
                submissionId,
                new Decision(
                        current.status(),
                        to,
                        decision.teacherId(),
                        now,
                        changes,
                        commentChanged ? (comment == null ? "" : comment) : null),
                all,
                commentChanged ? comment : current.comment(),
                apiKeyId);
        submissions.find(submissionId).map(SubmissionChanged.Decided::new).ifPresent(events::publishEvent);
        return submission(tenantId, homeworkId, submissionId);
    }

    /**
     * The decision's points, checked: each for a criterion the submission is graded on (the review's, or before it
     * the homework's rubric), once, within its range; before the review, all of them or none, since a grade of some
     * criteria would have nothing to stand on for the others.
     */
    private static List<TeacherPoints> checkedPoints(
            Submission current, Homework homework, TeacherDecision decision, Instant now) {
        Map<String, CriterionScore> gradable = new LinkedHashMap<>();
        if (!current.outcome().criteria().isEmpty()) {
            current.outcome().criteria().forEach(score -> gradable.put(score.criterionId(), score));
        } else {
            homework.rubric()
                    .criteria()
                    .forEach(criterion -> gradable.put(
                            criterion.id(),
                            new CriterionScore(
                                    criterion.id(), criterion.title(), 0, criterion.maxPoints(), "", List.of())));
        }
        List<TeacherPoints> given = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < decision.criteria().size(); i++) {
            TeacherDecision.GivenPoints points = decision.criteria().get(i);
            String field = "criteria[" + i + "]";
            CriterionScore criterion = gradable.get(points.criterionId());
            if (criterion == null) {
                throw InvalidInput.field(
                        field + ".criterionId",
                        "is not a criterion of this homework's rubric",
                        "Use one of " + String.join(", ", gradable.keySet()) + ".");
            }
            if (!seen.add(points.criterionId())) {
                throw InvalidInput.field(
                        field + ".criterionId", "is given twice", "Give each criterion's points once.");
            }
            if (points.points() < 0 || points.points() > criterion.maxPoints()) {
                throw InvalidInput.field(
                        field + ".points",
                        "must be between 0 and " + criterion.maxPoints() + " (the criterion's maximum)",
                        "Give a whole number of points from 0 to " + criterion.maxPoints() + ".");
            }
            given.add(new TeacherPoints(
                    criterion.criterionId(),
                    criterion.title(),
                    points.points(),
                    criterion.maxPoints(),
                    points.comment() == null || points.comment().isBlank() ? null : points.comment(),
                    decision.teacherId(),
                    now));
        }
        if (current.outcome().criteria().isEmpty() && !given.isEmpty()) {
            Set<String> graded = new HashSet<>(seen);
            current.teacherPoints().forEach(points -> graded.add(points.criterionId()));
            List<String> missing = gradable.keySet().stream()
                    .filter(id -> !graded.contains(id))
                    .toList();
            if (!missing.isEmpty()) {
                throw InvalidInput.field(
                        "criteria",
                        "leaves " + String.join(", ", missing) + " without points, and the review has not graded"
                                + " them yet",
                        "Give points for every criterion of the rubric, or wait for the review and change only"
                                + " those you disagree with.");
            }
        }
        return given;
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
