package com.chatreview.submission;

import com.chatreview.chat.ChatId;
import com.chatreview.database.Sql;
import com.chatreview.grading.Verdict.CriterionScore;
import com.chatreview.grading.Verdict.Finding;
import com.chatreview.grading.Verdict.Flag;
import com.chatreview.homework.HomeworkId;
import com.chatreview.kernel.Batches;
import com.chatreview.kernel.PageRequest;
import com.chatreview.tenancy.TenantId;
import com.chatreview.testrun.TestRun;
import java.io.InputStream;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/** The {@code submissions}, {@code submission_files} and {@code submission_decisions} tables. */
@Repository
class Submissions {

    private static final String COLUMNS = """
            id, tenant_id, homework_id, student_id, chat_id, status, analysis, grade, criteria, findings, flags, tests,
            created_at, updated_at, review_state, review_attempts, review_error, reviewed_at, teacher_points,
            teacher_comment""";

    private static final TypeReference<List<CriterionScore>> CRITERIA = new TypeReference<>() {};
    private static final TypeReference<List<Finding>> FINDINGS = new TypeReference<>() {};
    private static final TypeReference<List<Flag>> FLAGS = new TypeReference<>() {};
    private static final TypeReference<List<TeacherPoints>> TEACHER_POINTS = new TypeReference<>() {};
    private static final TypeReference<List<Decision.PointsChange>> CHANGES = new TypeReference<>() {};

    private final JdbcClient jdbc;
    private final JdbcTemplate streaming;
    private final JsonMapper json;
    private final RegradeRequests regrades;

    Submissions(JdbcClient jdbc, JdbcTemplate streaming, JsonMapper json, RegradeRequests regrades) {
        this.jdbc = jdbc;
        this.streaming = streaming;
        this.json = json;
        this.regrades = regrades;
    }

    void insert(Submission submission) {
        jdbc.sql("""
                INSERT INTO submissions (id, tenant_id, homework_id, student_id, chat_id, status, analysis, grade,
                                         created_at, updated_at)
                VALUES (:id, :tenant, :homework, :student, :chat, :status, '', '', :created, :updated)""")
                .param("id", submission.id().value())
                .param("tenant", submission.tenantId().value())
                .param("homework", submission.homeworkId().value())
                .param("student", submission.studentId())
                .param("chat", submission.chatId().value())
                .param("status", submission.status().value())
                .param("created", Sql.at(submission.createdAt()))
                .param("updated", Sql.at(submission.updatedAt()))
                .update();
    }

    /** Stores the file's bytes, streamed from the upload to the database without holding them in memory. */
    void insertFile(SubmissionId submissionId, SubmittedFile file, InputStream content, Instant now) {
        streaming.update("""
                INSERT INTO submission_files (id, submission_id, position, file_name, content_type, size_bytes, sha256,
                                              content, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)""", statement -> {
            statement.setObject(1, file.id());
            statement.setObject(2, submissionId.value());
            statement.setInt(3, file.position());
            statement.setString(4, file.fileName());
            statement.setString(5, file.contentType());
            statement.setLong(6, file.size());
            statement.setBytes(7, HexFormat.of().parseHex(file.sha256()));
            statement.setBinaryStream(8, content, file.size());
            statement.setObject(9, Sql.at(now));
        });
    }

    Optional<Submission> find(UUID tenantId, HomeworkId homeworkId, SubmissionId submissionId, boolean forUpdate) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM submissions"
                        + " WHERE id = :id AND tenant_id = :tenant AND homework_id = :homework"
                        + (forUpdate ? " FOR UPDATE" : ""))
                .param("id", submissionId.value())
                .param("tenant", tenantId)
                .param("homework", homeworkId.value())
                .query(this::submission)
                .optional()
                .map(found -> complete(List.of(found)).getFirst());
    }

    /** The submission a chat was created for, of the chat's tenant. */
    Optional<Submission> findByChat(UUID tenantId, ChatId chatId) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM submissions WHERE chat_id = :chat AND tenant_id = :tenant")
                .param("chat", chatId.value())
                .param("tenant", tenantId)
                .query(this::submission)
                .optional()
                .map(found -> complete(List.of(found)).getFirst());
    }

    /** The submission whatever its tenant: for the service's own work on it (the review job). */
    Optional<Submission> find(SubmissionId submissionId) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM submissions WHERE id = :id")
                .param("id", submissionId.value())
                .query(this::submission)
                .optional()
                .map(found -> complete(List.of(found)).getFirst());
    }

    /** The student's submissions to any homework created after {@code after} (from the first when null), oldest first. */
    List<Submission> ofStudentAfter(UUID tenantId, String studentId, @Nullable Submission after, int limit) {
        return complete(jdbc.sql("SELECT " + COLUMNS + " FROM submissions WHERE tenant_id = :tenant"
                        + " AND student_id = :student"
                        + " AND (CAST(:afterId AS uuid) IS NULL OR (created_at, id) > (:afterAt, :afterId))"
                        + " ORDER BY created_at, id LIMIT :limit")
                .param("tenant", tenantId)
                .param("student", studentId)
                .param("afterAt", after == null ? null : Sql.at(after.createdAt()))
                .param("afterId", after == null ? null : after.id().value())
                .param("limit", limit)
                .query(this::submission)
                .list());
    }

    /** The tenant's submissions created before {@code cutoff}, oldest first, after {@code after}. */
    List<Submission> createdBefore(UUID tenantId, Instant cutoff, @Nullable Submission after, int limit) {
        return complete(jdbc.sql("SELECT " + COLUMNS + " FROM submissions WHERE tenant_id = :tenant"
                        + " AND created_at < :cutoff"
                        + " AND (CAST(:afterId AS uuid) IS NULL OR (created_at, id) > (:afterAt, :afterId))"
                        + " ORDER BY created_at, id LIMIT :limit")
                .param("tenant", tenantId)
                .param("cutoff", Sql.at(cutoff))
                .param("afterAt", after == null ? null : Sql.at(after.createdAt()))
                .param("afterId", after == null ? null : after.id().value())
                .param("limit", limit)
                .query(this::submission)
                .list());
    }

    /** What deleting a submission took with it. */
    record DeletedFiles(int count, long bytes) {}

    /** Deletes the submission with its files and decisions; empty when it was gone already. */
    Optional<DeletedFiles> delete(UUID tenantId, SubmissionId submissionId) {
        DeletedFiles files = jdbc.sql("""
                        SELECT count(*), COALESCE(sum(size_bytes), 0) FROM submission_files
                        WHERE submission_id = :id""")
                .param("id", submissionId.value())
                .query((rs, n) -> new DeletedFiles(rs.getInt(1), rs.getLong(2)))
                .single();
        boolean deleted = jdbc.sql("DELETE FROM submissions WHERE id = :id AND tenant_id = :tenant")
                        .param("id", submissionId.value())
                        .param("tenant", tenantId)
                        .update()
                == 1;
        return deleted ? Optional.of(files) : Optional.empty();
    }

    boolean anyOfStudent(UUID tenantId, String studentId) {
        return jdbc.sql("SELECT EXISTS (SELECT 1 FROM submissions WHERE tenant_id = :tenant AND student_id = :student)")
                .param("tenant", tenantId)
                .param("student", studentId)
                .query(Boolean.class)
                .single();
    }

    long count(UUID tenantId, HomeworkId homeworkId, @Nullable String studentId) {
        return jdbc.sql("SELECT count(*) FROM submissions WHERE tenant_id = :tenant AND homework_id = :homework"
                        + " AND (CAST(:student AS text) IS NULL OR student_id = :student)")
                .param("tenant", tenantId)
                .param("homework", homeworkId.value())
                .param("student", studentId)
                .query(Long.class)
                .single();
    }

    List<Submission> page(UUID tenantId, HomeworkId homeworkId, @Nullable String studentId, PageRequest page) {
        return complete(jdbc.sql("SELECT " + COLUMNS + " FROM submissions"
                        + " WHERE tenant_id = :tenant AND homework_id = :homework"
                        + " AND (CAST(:student AS text) IS NULL OR student_id = :student)"
                        + " ORDER BY created_at DESC, id DESC OFFSET :offset LIMIT :limit")
                .param("tenant", tenantId)
                .param("homework", homeworkId.value())
                .param("student", studentId)
                .param("offset", page.offset())
                .param("limit", page.limit())
                .query(this::submission)
                .list());
    }

    /**
     * Records the teacher's decision: the status, the points they gave (all of them, the earlier ones with the new),
     * their comment on the whole, and in the audit trail what this decision changed.
     */
    /** How many of the homework's submissions are of students whose ids start with {@code prefix}. */
    long countOfStudentsStartingWith(UUID tenantId, HomeworkId homeworkId, String prefix) {
        return jdbc.sql("SELECT count(*) FROM submissions WHERE tenant_id = :tenant AND homework_id = :homework"
                        + " AND left(student_id, length(:prefix)) = :prefix")
                .param("tenant", tenantId)
                .param("homework", homeworkId.value())
                .param("prefix", prefix)
                .query(Long.class)
                .single();
    }

    /** A page of the homework's submissions of students whose ids start with {@code prefix}, newest first. */
    List<Submission> pageOfStudentsStartingWith(UUID tenantId, HomeworkId homeworkId, String prefix, PageRequest page) {
        return complete(jdbc.sql("SELECT " + COLUMNS + " FROM submissions"
                        + " WHERE tenant_id = :tenant AND homework_id = :homework"
                        + " AND left(student_id, length(:prefix)) = :prefix"
                        + " ORDER BY created_at DESC, id DESC OFFSET :offset LIMIT :limit")
                .param("tenant", tenantId)
                .param("homework", homeworkId.value())
                .param("prefix", prefix)
                .param("offset", page.offset())
                .param("limit", page.limit())
                .query(this::submission)
                .list());
    }

    void decide(
            SubmissionId submissionId,
            Decision decision,
            List<TeacherPoints> teacherPoints,
            @Nullable String teacherComment,
            @Nullable UUID apiKeyId) {
        jdbc.sql("""
                UPDATE submissions SET status = :status, teacher_points = :points::jsonb, teacher_comment = :comment,
                                       updated_at = :now
                WHERE id = :id""")
                .param("status", decision.to().value())
                .param("points", json.writeValueAsString(teacherPoints))
                .param("comment", teacherComment)
                .param("now", Sql.at(decision.decidedAt()))
                .param("id", submissionId.value())
                .update();
        jdbc.sql("""
                INSERT INTO submission_decisions (id, submission_id, from_status, to_status, decided_by, api_key_id,
                                                  decided_at, changed_points, comment)
                VALUES (:id, :submission, :from, :to, :by, :key, :now, :changed::jsonb, :comment)""")
                .param("id", UUID.randomUUID())
                .param("submission", submissionId.value())
                .param("from", decision.from().value())
                .param("to", decision.to().value())
                .param("by", decision.decidedBy())
                .param("key", apiKeyId)
                .param("now", Sql.at(decision.decidedAt()))
                .param("changed", json.writeValueAsString(decision.changedPoints()))
                .param("comment", decision.comment())
                .update();
    }

    /**
     * Hands over the homework's submissions the teacher decided on after the review graded them, 500 read at a time
     * (by id, so that none is missed or met twice while decisions are made).
     */
    void forEachDecidedAfterReview(UUID tenantId, HomeworkId homeworkId, Consumer<Agreements.DecidedSubmission> each) {
        Batches.forEach(
                500,
                last -> jdbc.sql("""
                            SELECT id, student_id, grade, criteria::text, teacher_points::text FROM submissions
                            WHERE tenant_id = :tenant AND homework_id = :homework
                              AND status IN ('approved', 'needs_revision') AND review_state = 'done'
                              AND (CAST(:after AS uuid) IS NULL OR id > :after)
                            ORDER BY id LIMIT 500""")
                        .param("tenant", tenantId)
                        .param("homework", homeworkId.value())
                        .param(
                                "after",
                                last == null ? null : last.submissionId().value())
                        .query((rs, n) -> new Agreements.DecidedSubmission(
                                SubmissionId.of(rs.getObject("id", UUID.class)),
                                rs.getString("student_id"),
                                rs.getString("grade"),
                                json.readValue(rs.getString("criteria"), CRITERIA),
                                json.readValue(rs.getString("teacher_points"), TEACHER_POINTS)))
                        .list(),
                each);
    }

    /** The submission's files with the text extracted from them so far ({@code null} where none was yet). */
    List<FileText> fileTexts(SubmissionId submissionId) {
        return jdbc.sql("""
                        SELECT id, position, file_name, content_type, size_bytes, sha256, text_content, text_truncated,
                               text_not_opened
                        FROM submission_files WHERE submission_id = :submission ORDER BY position""")
                .param("submission", submissionId.value())
                .query((rs, n) -> new FileText(
                        file(rs),
                        rs.getString("text_content") == null
                                ? null
                                : new ExtractedText(
                                        rs.getString("text_content"),
                                        rs.getBoolean("text_truncated"),
                                        rs.getString("text_not_opened"))))
                .list();
    }

    /**
     * The file's stored bytes (at most 10 MiB), read whole so that the connection goes back to the pool before
     * anyone parses them: the driver holds a {@code bytea} in memory anyway.
     */
    byte[] content(UUID fileId) {
        return jdbc.sql("SELECT content FROM submission_files WHERE id = :id")
                .param("id", fileId)
                .query(byte[].class)
                .optional()
                .orElseThrow(() -> new IllegalStateException("The file " + fileId + " is gone"));
    }

    void storeText(UUID fileId, ExtractedText text) {
        jdbc.sql("""
                UPDATE submission_files SET text_content = :text, text_truncated = :truncated,
                                            text_not_opened = :notOpened
                WHERE id = :id""")
                .param("text", text.text())
                .param("truncated", text.truncated())
                .param("notOpened", text.notOpened())
                .param("id", fileId)
                .update();
    }

    /**
     * Stores the AI's review once: {@code submitted} becomes {@code reviewed}, a teacher's decision stays.
     *
     * @return false when the review was stored already
     */
    boolean recordReview(SubmissionId submissionId, String grade, String analysis, ReviewOutcome outcome, Instant now) {
        return jdbc.sql("""
                        UPDATE submissions
                        SET analysis = :analysis, grade = :grade, criteria = :criteria::jsonb,
                            findings = :findings::jsonb, flags = :flags::jsonb,
                            review_state = 'done', review_error = NULL,
                            reviewed_at = :now, updated_at = :now,
                            status = CASE WHEN status = 'submitted' THEN 'reviewed' ELSE status END
                        WHERE id = :id AND review_state <> 'done'""")
                        .param("analysis", analysis)
                        .param("grade", grade)
                        .param("criteria", json.writeValueAsString(outcome.criteria()))
                        .param("findings", json.writeValueAsString(outcome.findings()))
                        .param("flags", json.writeValueAsString(outcome.flags()))
                        .param("now", Sql.at(now))
                        .param("id", submissionId.value())
                        .update()
                == 1;
    }

    void recordFailedAttempt(SubmissionId submissionId, String error) {
        jdbc.sql("""
                UPDATE submissions SET review_attempts = review_attempts + 1, review_error = :error
                WHERE id = :id AND review_state = 'pending'""").param("error", error).param("id", submissionId.value()).update();
    }

    void recordReviewGaveUp(SubmissionId submissionId, String analysis, Instant now) {
        jdbc.sql("""
                UPDATE submissions SET review_state = 'failed', analysis = :analysis, updated_at = :now
                WHERE id = :id AND review_state = 'pending'""")
                .param("analysis", analysis)
                .param("now", Sql.at(now))
                .param("id", submissionId.value())
                .update();
    }

    /** The review's job found a budget spent: the review waits (or goes on waiting) for it. */
    void waitForBudget(SubmissionId submissionId, Instant now) {
        jdbc.sql("""
                        UPDATE submissions SET review_state = 'waiting_for_budget', updated_at = :now
                        WHERE id = :id AND review_state = 'pending'""")
                .param("now", Sql.at(now))
                .param("id", submissionId.value())
                .update();
    }

    /** The budget allows the review now: it is pending (running) again. */
    void budgetAllows(SubmissionId submissionId, Instant now) {
        jdbc.sql("""
                        UPDATE submissions SET review_state = 'pending', updated_at = :now
                        WHERE id = :id AND review_state = 'waiting_for_budget'""")
                .param("now", Sql.at(now))
                .param("id", submissionId.value())
                .update();
    }

    long waitingForBudgetCount() {
        return jdbc.sql("SELECT count(*) FROM submissions WHERE review_state = 'waiting_for_budget'")
                .query(Long.class)
                .single();
    }

    List<SubmissionId> waitingForBudget(UUID tenantId) {
        return jdbc
                .sql("SELECT id FROM submissions WHERE tenant_id = :tenant AND review_state = 'waiting_for_budget'")
                .param("tenant", tenantId)
                .query(UUID.class)
                .list()
                .stream()
                .map(id -> SubmissionId.of(Objects.requireNonNull(id, "the primary key")))
                .toList();
    }

    /** A failed review goes back to pending for a new round; false when it had not failed. */
    boolean reopenReview(SubmissionId submissionId, Instant now) {
        return jdbc.sql("""
                        UPDATE submissions SET review_state = 'pending', review_attempts = 0, review_error = NULL,
                                               analysis = '', criteria = '[]', findings = '[]', flags = '[]',
                                               updated_at = :now
                        WHERE id = :id AND review_state = 'failed'""")
                        .param("now", Sql.at(now))
                        .param("id", submissionId.value())
                        .update()
                == 1;
    }

    private static SubmittedFile file(ResultSet rs) throws SQLException {
        return new SubmittedFile(
                rs.getObject("id", UUID.class),
                rs.getInt("position"),
                rs.getString("file_name"),
                rs.getString("content_type"),
                rs.getLong("size_bytes"),
                HexFormat.of().formatHex(rs.getBytes("sha256")));
    }

    /** The submissions with their files, decisions and regrade requests, three queries whatever their number. */
    private List<Submission> complete(List<Submission> submissions) {
        if (submissions.isEmpty()) {
            return submissions;
        }
        List<UUID> ids =
                submissions.stream().map(submission -> submission.id().value()).toList();
        Map<UUID, List<Decision>> decisions = jdbc
                .sql("""
                        SELECT submission_id, from_status, to_status, decided_by, decided_at, changed_points::text,
                               comment
                        FROM submission_decisions
                        WHERE submission_id IN (:ids) ORDER BY submission_id, decided_at, id""")
                .param("ids", ids)
                .query((rs, n) -> Map.entry(
                        rs.getObject("submission_id", UUID.class),
                        new Decision(
                                SubmissionStatus.of(rs.getString("from_status")).orElseThrow(),
                                SubmissionStatus.of(rs.getString("to_status")).orElseThrow(),
                                rs.getString("decided_by"),
                                Sql.instantNotNull(rs, "decided_at"),
                                json.readValue(rs.getString("changed_points"), CHANGES),
                                rs.getString("comment"))))
                .list()
                .stream()
                .collect(Collectors.groupingBy(
                        Map.Entry::getKey,
                        LinkedHashMap::new,
                        Collectors.mapping(Map.Entry::getValue, Collectors.toList())));
        Map<UUID, List<SubmittedFile>> files = jdbc
                .sql("""
                        SELECT id, submission_id, position, file_name, content_type, size_bytes, sha256
                        FROM submission_files WHERE submission_id IN (:ids) ORDER BY submission_id, position""")
                .param("ids", ids)
                .query((rs, n) -> Map.entry(rs.getObject("submission_id", UUID.class), file(rs)))
                .list()
                .stream()
                .collect(Collectors.groupingBy(
                        Map.Entry::getKey,
                        LinkedHashMap::new,
                        Collectors.mapping(Map.Entry::getValue, Collectors.toList())));
        Map<UUID, List<RegradeRequest>> requests = regrades.of(ids);
        return submissions.stream()
                .map(submission -> submission
                        .withFiles(files.getOrDefault(submission.id().value(), List.of()))
                        .withDecisions(decisions.getOrDefault(submission.id().value(), List.of()))
                        .withRegradeRequests(
                                requests.getOrDefault(submission.id().value(), List.of())))
                .toList();
    }

    private @Nullable TestRun testRun(@Nullable String stored) {
        return stored == null ? null : json.readValue(stored, TestRun.class);
    }

    /**
     * Stores what the homework's tests came to, unless an attempt that overlapped this one stored its run first.
     *
     * @return the run the submission holds now; empty when the submission is gone
     */
    Optional<TestRun> recordTests(SubmissionId submissionId, TestRun run) {
        return jdbc.sql("""
                        UPDATE submissions SET tests = COALESCE(tests, :tests::jsonb)
                        WHERE id = :id RETURNING tests::text""")
                .param("tests", json.writeValueAsString(run))
                .param("id", submissionId.value())
                .query(String.class)
                .optional()
                .map(stored -> json.readValue(stored, TestRun.class));
    }

    private Submission submission(ResultSet rs, int row) throws SQLException {
        return new Submission(
                SubmissionId.of(rs.getObject("id", UUID.class)),
                TenantId.of(rs.getObject("tenant_id", UUID.class)),
                HomeworkId.of(rs.getObject("homework_id", UUID.class)),
                rs.getString("student_id"),
                ChatId.of(rs.getObject("chat_id", UUID.class)),
                SubmissionStatus.of(rs.getString("status")).orElseThrow(),
                rs.getString("analysis"),
                rs.getString("grade"),
                new ReviewOutcome(
                        json.readValue(rs.getString("criteria"), CRITERIA),
                        json.readValue(rs.getString("findings"), FINDINGS),
                        json.readValue(rs.getString("flags"), FLAGS)),
                testRun(rs.getString("tests")),
                Sql.instantNotNull(rs, "created_at"),
                Sql.instantNotNull(rs, "updated_at"),
                List.of(),
                new ReviewProgress(
                        ReviewProgress.State.of(rs.getString("review_state")).orElseThrow(),
                        rs.getInt("review_attempts"),
                        rs.getString("review_error"),
                        Sql.instant(rs, "reviewed_at")),
                json.readValue(rs.getString("teacher_points"), TEACHER_POINTS),
                rs.getString("teacher_comment"),
                List.of(),
                List.of());
    }
}
