package com.chatreview.lti.web;

import static com.chatreview.lti.web.LtiPages.escape;

import com.chatreview.lti.course.LtiClass;
import com.chatreview.lti.deeplinking.LtiDeepLinking;
import com.chatreview.lti.launch.LtiSession;
import com.chatreview.submission.Agreement;
import com.chatreview.submission.GradedCriterion;
import com.chatreview.submission.RegradeRequest;
import com.chatreview.submission.Submission;
import com.chatreview.submission.SubmissionStatus;
import com.chatreview.submission.SubmittedFile;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;

/**
 * The teacher's pages of a homework in the LMS (docs/lti.md, The teacher's class view): the class's submissions, and
 * one submission with its review, the decision form and the regrade requests. Everything from the service's data is
 * escaped; every form posts to the tool with the session in its action (no cookie: another site's form cannot act
 * for the teacher, for it cannot know the session).
 */
final class LtiClassPages {

    private static final DateTimeFormatter WHEN = DateTimeFormatter.ofPattern("d MMM yyyy, HH:mm 'UTC'", Locale.ENGLISH)
            .withZone(ZoneOffset.UTC);

    private LtiClassPages() {}

    static ResponseEntity<String> classView(LtiSession session, LtiClass.ClassView view) {
        StringBuilder body = new StringBuilder(LtiPages.signedInAs(session.launch(), " (teacher)"));
        Agreement agreement = view.agreement();
        if (agreement.decidedSubmissions() > 0) {
            body.append("<p>Of the ")
                    .append(agreement.decidedSubmissions())
                    .append(" submissions you decided after their review, ")
                    .append(agreement.lettersKept())
                    .append(" kept the review's letter.</p>");
        }
        body.append("<h2>Submissions</h2>");
        if (view.rows().isEmpty()) {
            body.append("<p>No learner of your course has handed in anything yet.</p>");
        } else {
            body.append("<table class=\"class\"><caption>Submissions ")
                    .append(view.offset() + 1)
                    .append(" to ")
                    .append(view.offset() + view.rows().size())
                    .append(" of ")
                    .append(view.total())
                    .append(", newest first</caption><thead><tr><th scope=\"col\">Learner</th>"
                            + "<th scope=\"col\">Handed in</th><th scope=\"col\">Status</th>"
                            + "<th scope=\"col\">Grade</th><th scope=\"col\">Flags</th>"
                            + "<th scope=\"col\">Open regrade requests</th></tr></thead><tbody>");
            for (LtiClass.Row row : view.rows()) {
                Submission submission = row.submission();
                long open = submission.regradeRequests().stream()
                        .filter(request -> request.state() == RegradeRequest.State.OPEN)
                        .count();
                body.append("<tr><th scope=\"row\"><a href=\"")
                        .append(escape(submissionPage(session, submission.id().toString(), null)))
                        .append("\">")
                        .append(escape(learner(row)))
                        .append("</a></th><td>")
                        .append(WHEN.format(submission.createdAt()))
                        .append("</td><td>")
                        .append(escape(submission.status().value().replace('_', ' ')))
                        .append("</td><td>")
                        .append(escape(grade(submission)))
                        .append("</td><td>")
                        .append(submission.outcome().flags().size())
                        .append("</td><td>")
                        .append(open)
                        .append("</td></tr>");
            }
            body.append("</tbody></table>");
            body.append("<p class=\"pages\">");
            if (view.offset() > 0) {
                body.append("<a href=\"")
                        .append(escape(classPage(session, Math.max(0, view.offset() - LtiClass.PAGE))))
                        .append("\">Newer submissions</a> ");
            }
            if (view.offset() + view.rows().size() < view.total()) {
                body.append("<a href=\"")
                        .append(escape(classPage(session, view.offset() + LtiClass.PAGE)))
                        .append("\">Older submissions</a>");
            }
            body.append("</p>");
        }
        return LtiPages.sessionPage(
                HttpStatus.OK, LtiDeepLinking.titleOf(view.homework()), body.toString(), session.launch());
    }

    /**
     * One submission: its review, the decision form (status, points and comment per criterion, the comment on the
     * whole) and its regrade requests, each open one with a form for the answer.
     *
     * @param done what the teacher's last form did ({@code decided}, {@code answered}), or null
     */
    static ResponseEntity<String> submission(
            LtiSession session, LtiClass.Row row, @Nullable String done, HttpStatus status, List<String> problems) {
        Submission submission = row.submission();
        String token = session.token();
        StringBuilder body = new StringBuilder(LtiPages.signedInAs(session.launch(), " (teacher)"));
        body.append("<p><a href=\"").append(escape(classPage(session, 0))).append("\">All submissions</a></p>");
        body.append("<h2>")
                .append(escape(learner(row)))
                .append(", handed in ")
                .append(WHEN.format(submission.createdAt()))
                .append("</h2>");
        if ("decided".equals(done)) {
            body.append("<p class=\"notice\" role=\"status\">Your decision is saved.</p>");
        } else if ("answered".equals(done)) {
            body.append("<p class=\"notice\" role=\"status\">Your answer is sent; the learner reads it in the"
                    + " review chat.</p>");
        }
        if (!problems.isEmpty()) {
            body.append("<div class=\"problems\" role=\"alert\"><p>Nothing was saved:</p><ul>");
            problems.forEach(
                    problem -> body.append("<li>").append(escape(problem)).append("</li>"));
            body.append("</ul></div>");
        }
        body.append("<p>Status: <strong>")
                .append(escape(submission.status().value().replace('_', ' ')))
                .append("</strong>. Grade: <strong>")
                .append(escape(grade(submission)))
                .append("</strong>.</p>");
        body.append("<p>Files: ");
        List<SubmittedFile> files = submission.files();
        for (int i = 0; i < files.size(); i++) {
            body.append(i == 0 ? "" : ", ").append(escape(files.get(i).fileName()));
        }
        body.append(".</p>");
        if (!submission.outcome().flags().isEmpty()) {
            body.append("<h3>Flags for you</h3><ul>");
            submission
                    .outcome()
                    .flags()
                    .forEach(flag -> body.append("<li>")
                            .append(escape(flag.kind().replace('_', ' ')))
                            .append(": ")
                            .append(escape(flag.message()))
                            .append("</li>"));
            body.append("</ul>");
        }
        if (!submission.analysis().isEmpty()) {
            body.append("<details><summary>The review</summary><div class=\"document\">")
                    .append(escape(submission.analysis()))
                    .append("</div></details>");
        }
        body.append("<h3>Your decision</h3>");
        body.append("<form method=\"post\" action=\"/lti/homework/decision?session=")
                .append(escape(URLEncoder.encode(token, StandardCharsets.UTF_8)))
                .append("\">")
                .append(hidden("submission", submission.id().toString()))
                .append("<fieldset><legend>Status</legend>");
        for (SubmissionStatus decision : List.of(SubmissionStatus.APPROVED, SubmissionStatus.NEEDS_REVISION)) {
            String id = "status-" + decision.value();
            body.append("<input type=\"radio\" name=\"status\" id=\"")
                    .append(id)
                    .append("\" value=\"")
                    .append(decision.value())
                    .append("\" required")
                    .append(submission.status() == decision ? " checked" : "")
                    .append("><label for=\"")
                    .append(id)
                    .append("\">")
                    .append(decision == SubmissionStatus.APPROVED ? "Approved" : "Needs revision")
                    .append("</label> ");
        }
        body.append("</fieldset>");
        if (submission.criteria().isEmpty()) {
            body.append("<p>The review has not graded it yet: decide now, or wait for its points.</p>");
        } else {
            body.append("<table><caption>Points per criterion</caption><thead><tr><th scope=\"col\">Criterion</th>"
                    + "<th scope=\"col\">The review's</th><th scope=\"col\">Points</th>"
                    + "<th scope=\"col\">Your comment</th></tr></thead><tbody>");
            for (GradedCriterion criterion : submission.criteria()) {
                String id = criterion.score().criterionId();
                Integer ai = submission.outcome().criteria().stream()
                        .filter(score -> score.criterionId().equals(id))
                        .map(score -> score.points())
                        .findFirst()
                        .orElse(null);
                body.append("<tr><th scope=\"row\">")
                        .append(escape(criterion.score().title()))
                        .append("</th><td>")
                        .append(
                                ai == null
                                        ? "–"
                                        : ai + " of " + criterion.score().maxPoints())
                        .append("</td><td><label class=\"visually-hidden\" for=\"points-")
                        .append(escape(id))
                        .append("\">Points for ")
                        .append(escape(criterion.score().title()))
                        .append("</label><input type=\"number\" id=\"points-")
                        .append(escape(id))
                        .append("\" name=\"points.")
                        .append(escape(id))
                        .append("\" min=\"0\" max=\"")
                        .append(criterion.score().maxPoints())
                        .append("\" step=\"1\" required value=\"")
                        .append(criterion.score().points())
                        .append("\"> of ")
                        .append(criterion.score().maxPoints())
                        .append("</td><td><label class=\"visually-hidden\" for=\"comment-")
                        .append(escape(id))
                        .append("\">Your comment on ")
                        .append(escape(criterion.score().title()))
                        .append("</label><textarea id=\"comment-")
                        .append(escape(id))
                        .append("\" name=\"comment.")
                        .append(escape(id))
                        .append("\" rows=\"2\" maxlength=\"4000\">")
                        .append(escape(criterion.comment() == null ? "" : criterion.comment()))
                        .append("</textarea></td></tr>");
            }
            body.append("</tbody></table>");
        }
        body.append("<label for=\"comment\">Your comment on the whole</label><textarea id=\"comment\" name=\"comment\""
                        + " rows=\"3\" maxlength=\"4000\">")
                .append(escape(submission.comment() == null ? "" : submission.comment()))
                .append("</textarea><button type=\"submit\">Save the decision</button></form>");
        body.append("<h3>Regrade requests</h3>");
        if (submission.regradeRequests().isEmpty()) {
            body.append("<p>The learner has asked for none.</p>");
        } else {
            body.append("<ol class=\"regrades\">");
            for (RegradeRequest request : submission.regradeRequests()) {
                String about = submission.criteria().stream()
                        .filter(criterion -> criterion.score().criterionId().equals(request.criterionId()))
                        .map(criterion -> criterion.score().title())
                        .findFirst()
                        .orElse("the whole grade");
                body.append("<li><p>About <strong>")
                        .append(escape(about))
                        .append("</strong>, ")
                        .append(WHEN.format(request.createdAt()))
                        .append(": ")
                        .append(escape(request.message()))
                        .append("</p>");
                if (request.state() == RegradeRequest.State.ANSWERED) {
                    body.append("<p>Your answer: ")
                            .append(escape(request.answer()))
                            .append("</p>");
                } else {
                    String id = "answer-" + request.id();
                    body.append("<form method=\"post\" action=\"/lti/homework/regrade-answer?session=")
                            .append(escape(URLEncoder.encode(token, StandardCharsets.UTF_8)))
                            .append("\">")
                            .append(hidden("submission", submission.id().toString()))
                            .append(hidden("request", request.id().toString()))
                            .append("<label for=\"")
                            .append(id)
                            .append("\">Your answer (it goes into the learner's review chat)</label><textarea id=\"")
                            .append(id)
                            .append("\" name=\"answer\" rows=\"3\" maxlength=\"4000\" required></textarea>")
                            .append("<button type=\"submit\">Send the answer</button></form>");
                }
                body.append("</li>");
            }
            body.append("</ol>");
        }
        return LtiPages.sessionPage(status, "Submission of " + learner(row), body.toString(), session.launch());
    }

    static String classPage(LtiSession session, int offset) {
        return "/lti/homework?session=" + URLEncoder.encode(session.token(), StandardCharsets.UTF_8)
                + (offset > 0 ? "&offset=" + offset : "");
    }

    static String submissionPage(LtiSession session, String submissionId, @Nullable String done) {
        return "/lti/homework/submission?session=" + URLEncoder.encode(session.token(), StandardCharsets.UTF_8) + "&id="
                + submissionId + (done == null ? "" : "&done=" + done);
    }

    private static String learner(LtiClass.Row row) {
        if (row.name() != null) {
            return row.name();
        }
        String id = row.submission().studentId();
        return "learner " + id.substring(id.lastIndexOf(':') + 1);
    }

    private static String grade(Submission submission) {
        if (submission.grade().isEmpty()) {
            return "not yet";
        }
        return submission.grade().equals(submission.aiGrade())
                        || submission.aiGrade().isEmpty()
                ? submission.grade()
                : submission.grade() + " (the review's: " + submission.aiGrade() + ")";
    }

    private static String hidden(String name, String value) {
        return "<input type=\"hidden\" name=\"" + name + "\" value=\"" + escape(value) + "\">";
    }
}
