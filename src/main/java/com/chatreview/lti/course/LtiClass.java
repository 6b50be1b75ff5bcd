package com.chatreview.lti.course;

import com.chatreview.homework.Homework;
import com.chatreview.kernel.Ids;
import com.chatreview.kernel.Page;
import com.chatreview.kernel.PageRequest;
import com.chatreview.lti.LaunchRefused;
import com.chatreview.lti.launch.LtiLaunch;
import com.chatreview.lti.launch.LtiSession;
import com.chatreview.submission.Agreement;
import com.chatreview.submission.Agreements;
import com.chatreview.submission.GradedCriterion;
import com.chatreview.submission.Regrades;
import com.chatreview.submission.Submission;
import com.chatreview.submission.SubmissionErrors.SubmissionNotFound;
import com.chatreview.submission.SubmissionId;
import com.chatreview.submission.SubmissionManagement;
import com.chatreview.submission.SubmissionStatus;
import com.chatreview.submission.TeacherDecision;
import com.chatreview.tenancy.TenantId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;

/**
 * The teacher's view of a homework from the LMS (docs/lti.md, The teacher's class view): a teacher's launch of a
 * homework link lists the submissions of the platform's learners to it, 50 a page, and lets them decide, change
 * points and answer regrade requests there, under the same rules as the API, as {@code lti:{platform}:{sub}}.
 */
@Component
public class LtiClass {

    /** Submissions a page. */
    public static final int PAGE = 50;

    private final LtiHomework homework;
    private final SubmissionManagement submissions;
    private final Regrades regrades;
    private final Agreements agreements;
    private final LtiPeople people;

    LtiClass(
            LtiHomework homework,
            SubmissionManagement submissions,
            Regrades regrades,
            Agreements agreements,
            LtiPeople people) {
        this.homework = homework;
        this.submissions = submissions;
        this.regrades = regrades;
        this.agreements = agreements;
        this.people = people;
    }

    /** A page of the class's submissions, newest first, with how the AI's grades compare with the teacher's. */
    public record ClassView(Homework homework, List<Row> rows, long total, int offset, Agreement agreement) {}

    /** A submission with its learner's name, as the LMS gave it (null when it gave none). */
    public record Row(Submission submission, @Nullable String name) {}

    /** Whether the launch is a teacher's: the class view instead of the learner's page. */
    public static boolean teaches(LtiSession session) {
        return session.launch().teaches();
    }

    /**
     * The session, checked to be a teacher's launch of a homework.
     *
     * @throws LaunchRefused when it is a learner's, or not one of a homework
     */
    public LtiSession checked(LtiSession session) {
        homework.checked(session);
        if (!teaches(session)) {
            throw LaunchRefused.because("This page is for the course's teachers.");
        }
        return session;
    }

    public ClassView view(LtiSession session, int offset) {
        LtiLaunch launch = checked(session).launch();
        Homework opened = opened(launch);
        TenantId tenant = launch.platform().tenantId();
        Page<Submission> page = submissions.submissionsOfStudentsStartingWith(
                tenant, opened.id(), learnersOf(launch), new PageRequest(Math.max(0, offset), PAGE, false));
        Map<String, String> names = people.namesOf(
                tenant,
                page.items().stream().map(Submission::studentId).distinct().toList());
        List<Row> rows = page.items().stream()
                .map(submission -> new Row(submission, names.get(submission.studentId())))
                .toList();
        return new ClassView(opened, rows, page.total(), Math.max(0, offset), agreements.of(tenant, opened.id()));
    }

    /**
     * One of the class's submissions.
     *
     * @throws LaunchRefused when the id names none of the class's submissions to this homework
     */
    public Row submission(LtiSession session, @Nullable String submissionId) {
        LtiLaunch launch = checked(session).launch();
        Homework opened = opened(launch);
        Submission found = Ids.uuid(submissionId == null ? "" : submissionId.strip())
                .map(SubmissionId::of)
                .flatMap(id -> existing(launch.platform().tenantId(), opened, id))
                .filter(submission -> submission.studentId().startsWith(learnersOf(launch)))
                .orElseThrow(() -> LaunchRefused.because(
                        "This page names no submission of your course's learners to this homework."));
        String name = people.namesOf(launch.platform().tenantId(), List.of(found.studentId()))
                .get(found.studentId());
        return new Row(found, name);
    }

    /**
     * The teacher's decision from the page: the status, and the points and comments of the criteria whose form
     * fields differ from the submission's final ones (the others keep theirs, the review's stay the review's).
     *
     * @param points the form's points by criterion id; a criterion missing is left as it is
     * @param comments the form's comments by criterion id (blank: none)
     * @param comment the comment on the whole ({@code null}: left as it is)
     */
    public Submission decide(
            LtiSession session,
            String submissionId,
            SubmissionStatus status,
            Map<String, Integer> points,
            Map<String, String> comments,
            @Nullable String comment) {
        Submission current = submission(session, submissionId).submission();
        LtiLaunch launch = session.launch();
        List<TeacherDecision.GivenPoints> given = new ArrayList<>();
        for (GradedCriterion criterion : current.criteria()) {
            String id = criterion.score().criterionId();
            Integer posted = points.get(id);
            if (posted == null) {
                continue;
            }
            String postedComment = blankToNull(comments.get(id));
            boolean changed = posted != criterion.score().points()
                    || (criterion.gradedBy() == GradedCriterion.GradedBy.TEACHER
                            ? !Objects.equals(postedComment, criterion.comment())
                            : postedComment != null);
            if (changed) {
                given.add(new TeacherDecision.GivenPoints(id, posted, postedComment));
            }
        }
        // before the review there are no criteria above: every criterion the form names is given
        if (current.criteria().isEmpty()) {
            points.forEach((id, posted) ->
                    given.add(new TeacherDecision.GivenPoints(id, posted, blankToNull(comments.get(id)))));
        }
        return submissions.decide(
                launch.platform().tenantId(),
                current.homeworkId(),
                current.id(),
                new TeacherDecision(status, launch.studentId(), given, comment),
                null);
    }

    /** The teacher's answer to one of the submission's regrade requests, from the page. */
    public void answer(LtiSession session, String submissionId, @Nullable String requestId, String answer) {
        Submission current = submission(session, submissionId).submission();
        UUID request = Ids.uuid(requestId == null ? "" : requestId.strip())
                .orElseThrow(() -> LaunchRefused.because("This form names no regrade request."));
        regrades.answer(
                session.launch().platform().tenantId(),
                current.homeworkId(),
                current.id(),
                request,
                answer,
                session.launch().studentId());
    }

    private Optional<Submission> existing(TenantId tenant, Homework opened, SubmissionId id) {
        try {
            return Optional.of(submissions.submission(tenant, opened.id(), id));
        } catch (SubmissionNotFound none) {
            return Optional.empty();
        }
    }

    private Homework opened(LtiLaunch launch) {
        return homework.homeworkOf(launch)
                .orElseThrow(() -> LaunchRefused.because("The homework of this link no longer exists."));
    }

    /** The {@code studentId}s of the launch's platform's learners begin so. */
    private static String learnersOf(LtiLaunch launch) {
        return launch.platform().studentIdOf("");
    }

    private static @Nullable String blankToNull(@Nullable String text) {
        return text == null || text.isBlank() ? null : text.strip();
    }
}
