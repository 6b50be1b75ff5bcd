package com.chatreview.lti.grades;

import com.chatreview.database.AfterCommit;
import com.chatreview.database.Sql;
import com.chatreview.homework.Homework;
import com.chatreview.homework.HomeworkCatalog;
import com.chatreview.lti.LtiPlatform;
import com.chatreview.lti.keys.PlatformTokens;
import com.chatreview.lti.launch.LtiLaunch;
import com.chatreview.submission.Submission;
import com.chatreview.submission.SubmissionChanged;
import com.chatreview.submission.SubmissionStatus;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.springframework.context.event.EventListener;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.json.JsonMapper;

/**
 * Which scores go to the LMS (docs/lti.md, Grades). A learner's launch of a homework from a link with a gradebook
 * column (the AGS claim's {@code lineitem}, with the score scope) makes the column a target of their scores of that
 * homework. When one of their submissions is reviewed, and again when the teacher decides, a score for each target
 * is written to the outbox ({@code lti_scores}) in the transaction that changed the submission: the change and its
 * scores commit together or not at all, once per (submission, state, column). {@link ScoreDelivery} sends them.
 */
public class GradePassback {

    static final String SUBMITTED = "Submitted";
    static final String COMPLETED = "Completed";
    static final String PENDING_MANUAL = "PendingManual";
    static final String PENDING = "Pending";
    static final String FULLY_GRADED = "FullyGraded";

    private final JdbcClient jdbc;
    private final HomeworkCatalog homework;
    private final LinkLineItems lineItems;
    private final JsonMapper json;
    private final Runnable wake;
    private final Clock clock;

    GradePassback(
            JdbcClient jdbc,
            HomeworkCatalog homework,
            LinkLineItems lineItems,
            JsonMapper json,
            Runnable wake,
            Clock clock) {
        this.lineItems = lineItems;
        this.jdbc = jdbc;
        this.homework = homework;
        this.json = json;
        this.wake = wake;
        this.clock = clock;
    }

    /**
     * A learner launched the homework: the launch's gradebook column receives their scores, the one its claim names
     * or, when it names none, the one the tool found or made for its link ({@link LinkLineItems}).
     */
    public void launched(LtiLaunch launch, Homework opened) {
        LtiLaunch.GradeService service = launch.gradeService();
        if (service == null || !service.scopes().contains(PlatformTokens.SCORE_SCOPE)) {
            return;
        }
        Optional<String> column =
                service.lineItem() != null ? Optional.of(service.lineItem()) : lineItems.of(launch, opened);
        if (column.isEmpty()) {
            return;
        }
        jdbc.sql("""
                        INSERT INTO lti_grade_targets
                            (platform_id, user_id, homework_id, line_item_url, tenant_id, sub, launched_at)
                        VALUES (:platform, :user, :homework, :lineItem, :tenant, :sub, :now)
                        ON CONFLICT (platform_id, user_id, homework_id, line_item_url)
                        DO UPDATE SET launched_at = EXCLUDED.launched_at""")
                .param("platform", launch.platform().id())
                .param("user", launch.studentId())
                .param("homework", opened.id().value())
                .param("lineItem", column.get())
                .param("tenant", launch.platform().tenantId().value())
                .param("sub", launch.sub())
                .param("now", Sql.at(clock.instant()))
                .update();
    }

    /** In the transaction that reviewed the submission, or recorded the teacher's decision. */
    @EventListener
    void submissionChanged(SubmissionChanged changed) {
        if (!(changed instanceof SubmissionChanged.Reviewed) && !(changed instanceof SubmissionChanged.Decided)) {
            return;
        }
        Submission submission = changed.submission();
        if (!submission.studentId().startsWith(LtiPlatform.STUDENT_PREFIX)) {
            return;
        }
        List<Target> targets = targets(submission);
        if (targets.isEmpty()) {
            return;
        }
        Optional<Homework> of = homework.find(submission.tenantId(), submission.homeworkId());
        if (of.isEmpty()) {
            return;
        }
        boolean decided = submission.status() == SubmissionStatus.APPROVED
                || submission.status() == SubmissionStatus.NEEDS_REVISION;
        // the final points: the teacher's where they gave some (docs/lti.md, Grades)
        int points = submission.points();
        boolean graded = submission.graded();
        // a decision is a state of its own each time it is made: approved, needs revision, approved again is three
        String state = submission.status().value() + "/" + (graded ? String.valueOf(points) : "unreviewed") + "/"
                + submission.decisions().size();
        Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
        int written = 0;
        for (Target target : targets) {
            Map<String, Object> score = new LinkedHashMap<>();
            score.put("userId", target.sub());
            if (graded) {
                score.put("scoreGiven", points);
                score.put("scoreMaximum", of.get().rubric().totalPoints());
                score.put(
                        "comment",
                        "Grade " + submission.grade() + (decided ? ", " + decidedAs(submission.status()) : "")
                                + (submission.comment() == null ? "" : ": " + submission.comment()));
            } else {
                // the teacher decided before the review: no points yet, which the review brings
                score.put("comment", capitalized(decidedAs(submission.status())) + "; the review is still to come");
            }
            score.put("activityProgress", decided ? COMPLETED : SUBMITTED);
            score.put("gradingProgress", !decided ? PENDING_MANUAL : graded ? FULLY_GRADED : PENDING);
            // fixed with the row: sent again, the score is the same one (a platform that saw it answers 409)
            score.put("timestamp", DateTimeFormatter.ISO_OFFSET_DATE_TIME.format(now.atOffset(ZoneOffset.UTC)));
            written += jdbc.sql("""
                            INSERT INTO lti_scores (submission_id, state, line_item_url, platform_id, tenant_id,
                                                    user_id, score, created_at, next_attempt_at)
                            SELECT :submission, :state, :lineItem, :platform, :tenant, :user, :score::jsonb, now(),
                                   now()
                            -- a platform deleted since its targets were read takes its scores with it, and must
                            -- not fail the review's transaction
                            WHERE EXISTS (SELECT 1 FROM lti_platforms WHERE id = :platform)
                            ON CONFLICT (submission_id, state, line_item_url) DO NOTHING""")
                    .param("submission", submission.id().value())
                    .param("state", state)
                    .param("lineItem", target.lineItem())
                    .param("platform", target.platformId())
                    .param("tenant", submission.tenantId().value())
                    .param("user", submission.studentId())
                    .param("score", json.writeValueAsString(score))
                    .update();
        }
        if (written > 0) {
            AfterCommit.run(wake);
        }
    }

    private static String capitalized(String text) {
        return Character.toUpperCase(text.charAt(0)) + text.substring(1);
    }

    private static String decidedAs(SubmissionStatus status) {
        return status == SubmissionStatus.APPROVED ? "approved by the teacher" : "the teacher asks for a revision";
    }

    private record Target(UUID platformId, String sub, String lineItem) {}

    private List<Target> targets(Submission submission) {
        return jdbc.sql("""
                        SELECT platform_id, sub, line_item_url FROM lti_grade_targets
                        WHERE tenant_id = :tenant AND user_id = :user AND homework_id = :homework""")
                .param("tenant", submission.tenantId().value())
                .param("user", submission.studentId())
                .param("homework", submission.homeworkId().value())
                .query((rs, row) -> new Target(
                        rs.getObject("platform_id", UUID.class), rs.getString("sub"), rs.getString("line_item_url")))
                .list();
    }
}
