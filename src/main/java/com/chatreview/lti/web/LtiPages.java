package com.chatreview.lti.web;

import com.chatreview.grading.Verdict;
import com.chatreview.homework.Homework;
import com.chatreview.homework.HomeworkFile;
import com.chatreview.kernel.Page;
import com.chatreview.lti.LaunchRefused;
import com.chatreview.lti.LtiPlatform;
import com.chatreview.lti.course.LtiHomework;
import com.chatreview.lti.deeplinking.LtiDeepLinking;
import com.chatreview.lti.launch.LtiLaunch;
import com.chatreview.lti.launch.LtiLaunches;
import com.chatreview.lti.launch.LtiSession;
import com.chatreview.submission.GradedCriterion;
import com.chatreview.submission.Submission;
import java.net.URI;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.util.HtmlUtils;

/**
 * The tool's pages, shown in the LMS's iframe: small, server-rendered HTML with every value escaped, no script, a
 * stylesheet of the service's own; never a stack trace. A page of a login or launch may be framed only by its
 * platform's origins ({@link LtiLaunch#frameOrigins}): framed by another site, a launch's page (whose session is in
 * its links) would let that site have a victim hand in work under someone else's name. A page that acts for no one
 * (a refusal, the registration's end, a login's page before any launch) may be framed anywhere.
 */
final class LtiPages {

    private static final MediaType HTML = new MediaType(MediaType.TEXT_HTML, StandardCharsets.UTF_8);
    private static final String POLICY = "default-src 'none'; style-src 'self'; img-src 'self' data:;"
            + " base-uri 'none'; form-action 'self'; object-src 'none'; frame-ancestors ";
    /** The framing of a page that acts for no one. */
    private static final List<String> ANYWHERE = List.of("*");

    private LtiPages() {}

    static ResponseEntity<String> refused(LaunchRefused refused) {
        HttpStatus status = switch (refused.kind()) {
            case REFUSED -> HttpStatus.BAD_REQUEST;
            case UNAVAILABLE -> HttpStatus.SERVICE_UNAVAILABLE;
            case TOO_MANY -> HttpStatus.TOO_MANY_REQUESTS;
            case TOO_LARGE -> HttpStatus.PAYLOAD_TOO_LARGE;
        };
        String title = switch (refused.kind()) {
            case REFUSED -> "The tool could not be opened";
            case TOO_LARGE -> "The files were not handed in";
            case UNAVAILABLE, TOO_MANY -> "The tool is not available right now";
        };
        ResponseEntity<String> page = page(status, title, "<p class=\"reason\">" + escape(refused.reason()) + "</p>");
        if (refused.retryAfter().isPositive()) {
            return ResponseEntity.status(page.getStatusCode())
                    .headers(page.getHeaders())
                    .header(
                            "Retry-After",
                            Long.toString(Math.max(1, refused.retryAfter().toSeconds())))
                    .body(page.getBody());
        }
        return page;
    }

    /**
     * The end of a dynamic registration: what was registered, and a script of the service's that tells the LMS it may
     * close the registration's window ({@code org.imsglobal.lti.close}).
     */
    static ResponseEntity<String> registered(LtiPlatform platform) {
        String body = "<p>The tool is registered with <strong>" + escape(platform.issuer())
                + "</strong> (client id <code>" + escape(platform.clientId()) + "</code>, deployment <code>"
                + escape(String.join(", ", platform.deploymentIds())) + "</code>). Teachers can add it to their"
                + " courses now.</p><p>You may close this window.</p><script src=\"/lti/registered.js\"></script>";
        return page(HttpStatus.OK, "The tool is registered", body);
    }

    /**
     * The login's page when the LMS keeps data for the tool (LTI platform storage): its script puts the login's value
     * in the LMS's storage frame, then sends the browser on to the LMS's authorization endpoint (the form's GET).
     */
    static ResponseEntity<String> storingLogin(LtiLaunches.PlatformStorage storage, URI authorization) {
        String base = authorization.getScheme() + "://" + authorization.getRawAuthority()
                + (authorization.getRawPath() == null ? "" : authorization.getRawPath());
        StringBuilder fields = new StringBuilder();
        String query = authorization.getRawQuery();
        if (query != null) {
            for (String pair : query.split("&")) {
                int equals = pair.indexOf('=');
                String name = equals < 0 ? pair : pair.substring(0, equals);
                String value = equals < 0 ? "" : pair.substring(equals + 1);
                fields.append("<input type=\"hidden\" name=\"")
                        .append(escape(URLDecoder.decode(name, StandardCharsets.UTF_8)))
                        .append("\" value=\"")
                        .append(escape(URLDecoder.decode(value, StandardCharsets.UTF_8)))
                        .append("\">");
            }
        }
        String body = storageForm("get", base, storage, fields.toString())
                + "<p id=\"platform-storage-status\" role=\"status\">Signing you in…</p>"
                + "<noscript><p>The LMS keeps the tool's sign-in in the browser: allow JavaScript for the tool, then"
                + " launch it again.</p></noscript>";
        // framed anywhere: no session yet, and its value goes to the platform's origin alone (postMessage's target
        // origin); where an LMS's site is not among its registered URLs (Canvas), only its signed launch names it
        return page(HttpStatus.OK, "Signing you in", body, storage.origin(), ANYWHERE);
    }

    /**
     * The launch's page when its login put a value in the LMS's storage: its script reads the value back and posts it
     * with the session, which opens only if it is the login's.
     */
    static ResponseEntity<String> checkingBrowser(
            LtiLaunches.PlatformStorage storage, String sessionToken, List<String> framedBy) {
        String fields = "<input type=\"hidden\" name=\"session\" value=\"" + escape(sessionToken) + "\">"
                + "<input type=\"hidden\" name=\"value\" value=\"\">";
        String body = storageForm("post", "/lti/launch/bound", storage, fields)
                + "<p id=\"platform-storage-status\" role=\"status\">Signing you in…</p>"
                + "<noscript><p>The LMS keeps the tool's sign-in in the browser: allow JavaScript for the tool, then"
                + " launch it again.</p></noscript>";
        return page(HttpStatus.OK, "Signing you in", body, "'self'", framedBy);
    }

    private static String storageForm(
            String method, String action, LtiLaunches.PlatformStorage storage, String fields) {
        return "<form id=\"platform-storage\" method=\"" + method + "\" action=\"" + escape(action)
                + "\" data-target=\"" + escape(storage.target()) + "\" data-origin=\"" + escape(storage.origin())
                + "\" data-key=\"" + escape(storage.key()) + "\""
                + (storage.value() == null ? "" : " data-value=\"" + escape(storage.value()) + "\"") + ">" + fields
                + "</form><script src=\"/lti/platform-storage.js\"></script>";
    }

    /**
     * The verified launch: who is signed in, from which course, and what the placement opens.
     */
    static ResponseEntity<String> launched(LtiLaunch launch) {
        StringBuilder body = new StringBuilder();
        body.append("<p>You are signed in as <strong>")
                .append(escape(launch.name() == null ? launch.sub() : launch.name()))
                .append("</strong>, ")
                .append(launch.teaches() ? "teaching" : "a learner")
                .append(
                        launch.context() == null
                                ? ""
                                : " in <strong>" + escape(courseOf(launch.context())) + "</strong>")
                .append(".</p>");
        String homework = launch.custom().get("homework_id");
        if (homework != null) {
            body.append("<p>This link names homework <code>")
                    .append(escape(homework))
                    .append("</code>, which the service does not have (any more): ask your teacher to add the homework"
                            + " to the course again.</p>");
        } else {
            body.append("<p>This link names no homework: your teacher sets the custom parameter <code>homework_id"
                    + "</code> on it, or adds it through the tool's content selection.</p>");
        }
        String title = launch.resourceLink() != null && launch.resourceLink().title() != null
                ? launch.resourceLink().title()
                : "Homework review";
        return page(HttpStatus.OK, title, body.toString(), null, launch.frameOrigins());
    }

    private static String courseOf(LtiLaunch.Context context) {
        if (context.title() != null) {
            return context.title();
        }
        return context.label() != null ? context.label() : context.id();
    }

    /**
     * The teacher's choice of homework for the LMS (deep linking): the tenant's homework to add, a search, and a
     * form to write a new one. {@code problems} says what was wrong with a new one just sent.
     */
    static ResponseEntity<String> picker(
            LtiSession session,
            Page<Homework> choices,
            @Nullable String search,
            int offset,
            HttpStatus status,
            List<String> problems,
            @Nullable String title,
            @Nullable String task) {
        LtiLaunch launch = session.launch();
        String token = escape(session.token());
        StringBuilder body = new StringBuilder();
        body.append("<p>You are signed in as <strong>")
                .append(escape(launch.name() == null ? launch.sub() : launch.name()))
                .append("</strong>")
                .append(
                        launch.context() == null
                                ? ""
                                : ", teaching <strong>" + escape(courseOf(launch.context())) + "</strong>")
                .append(". Pick the homework students of this course submit to: the LMS adds a link to it, and a"
                        + " gradebook column its reviews' points go to.</p>");
        body.append("<form class=\"search\" method=\"get\" action=\"/lti/deep-linking\" role=\"search\">")
                .append(hidden("session", token))
                .append("<div><label for=\"search\">Search the homework</label><input type=\"search\" id=\"search\""
                        + " name=\"search\" value=\"")
                .append(escape(search))
                .append("\"></div><button type=\"submit\">Search</button></form>");
        if (choices.items().isEmpty()) {
            body.append("<p>")
                    .append(search == null || search.isBlank() ? "There is no homework yet." : "No homework matches.")
                    .append("</p>");
        } else {
            body.append("<ul class=\"choices\">");
            for (Homework homework : choices.items()) {
                body.append("<li><form method=\"post\" action=\"/lti/deep-linking/choose\">")
                        .append(hidden("session", token))
                        .append(hidden("homework_id", homework.id().value().toString()))
                        .append("<span><strong>")
                        .append(escape(LtiDeepLinking.titleOf(homework)))
                        .append("</strong><span class=\"meta\">")
                        .append(escape(homework.course().name()))
                        .append(" · ")
                        .append(homework.rubric().totalPoints())
                        .append(" points</span></span><button type=\"submit\" aria-label=\"Add ")
                        .append(escape(LtiDeepLinking.titleOf(homework)))
                        .append("\">Add</button></form></li>");
            }
            body.append("</ul><p>")
                    .append(offset + 1)
                    .append("–")
                    .append(offset + choices.items().size())
                    .append(" of ")
                    .append(choices.total())
                    .append(" homework.");
            if (offset + choices.items().size() < choices.total()) {
                body.append(" <a href=\"/lti/deep-linking?session=")
                        .append(token)
                        .append("&amp;offset=")
                        .append(offset + choices.items().size())
                        .append(
                                search == null
                                        ? ""
                                        : "&amp;search="
                                                + escape(java.net.URLEncoder.encode(search, StandardCharsets.UTF_8)))
                        .append("\">Next</a>");
            }
            body.append("</p>");
        }
        body.append("<h2>Or write a new homework</h2>");
        if (!problems.isEmpty()) {
            body.append("<div class=\"problems\" role=\"alert\"><p>The homework was not published:</p><ul>");
            problems.forEach(
                    problem -> body.append("<li>").append(escape(problem)).append("</li>"));
            body.append("</ul></div>");
        }
        body.append("<form method=\"post\" action=\"/lti/deep-linking/create\">")
                .append(hidden("session", token))
                .append("<label for=\"title\">Title</label><input type=\"text\" id=\"title\" name=\"title\""
                        + " required maxlength=\"255\" value=\"")
                .append(escape(title))
                .append("\"><label for=\"task\">Task</label><textarea id=\"task\" name=\"task\" rows=\"8\""
                        + " required>")
                .append(escape(task))
                .append("</textarea><button type=\"submit\">Publish and add</button></form>");
        return page(
                status,
                "Add homework to the course",
                body.toString(),
                null,
                session.launch().frameOrigins());
    }

    /**
     * The answer to the LMS, posted by the browser at once (a script of the service's own; the button without it).
     */
    static ResponseEntity<String> deepLinkingResponse(LtiDeepLinking.Response response, List<String> framedBy) {
        String body = "<p>Adding <strong>" + escape(response.title())
                + "</strong> to the course: your LMS takes it from here.</p>"
                + "<form method=\"post\" data-auto-submit action=\"" + escape(response.returnUrl()) + "\">"
                + hidden("JWT", response.jwt())
                + "<button type=\"submit\">Add to the course</button></form>"
                + "<script src=\"/lti/submit.js\"></script>";
        return page(HttpStatus.OK, "Adding the homework", body, LtiPlatform.originOf(response.returnUrl()), framedBy);
    }

    /**
     * The learner's homework page: the task and rules (never the teacher's solution), the upload, their
     * submissions with status, grade, points per criterion and a link to each review chat.
     *
     * @param uploaded the submission just handed in, to confirm; {@code problems} what was wrong with an upload
     */
    static ResponseEntity<String> homework(
            LtiSession session,
            LtiHomework.View view,
            @Nullable String uploaded,
            HttpStatus status,
            List<String> problems) {
        LtiLaunch launch = session.launch();
        Homework homework = view.homework();
        StringBuilder body = new StringBuilder();
        body.append("<p>You are signed in as <strong>")
                .append(escape(launch.name() == null ? launch.sub() : launch.name()))
                .append("</strong>")
                .append(launch.context() == null ? "" : ", " + escape(courseOf(launch.context())))
                .append(".</p>");
        if (uploaded != null) {
            body.append("<p class=\"notice\" role=\"status\">Your files were handed in. The review is under way;"
                    + " it appears below when it is done (reload the page).</p>");
        }
        List<HomeworkFile> tasks = homework.filesOfType(HomeworkFile.FileType.TASK);
        body.append("<h2>The task</h2>");
        tasks.forEach(file -> body.append(document(file, tasks.size() > 1)));
        List<HomeworkFile> rules = homework.filesOfType(HomeworkFile.FileType.RESTRICTION);
        if (!rules.isEmpty()) {
            body.append("<h2>Rules</h2>");
            rules.forEach(file -> body.append(document(file, rules.size() > 1)));
        }
        body.append("<h2>Hand in your solution</h2>");
        if (!problems.isEmpty()) {
            body.append("<div class=\"problems\" role=\"alert\"><p>Nothing was handed in:</p><ul>");
            problems.forEach(
                    problem -> body.append("<li>").append(escape(problem)).append("</li>"));
            body.append("</ul></div>");
        }
        // the session in the action's query: the service finds it before it reads the files
        body.append("<form method=\"post\" action=\"/lti/homework/submissions?session=")
                .append(escape(URLEncoder.encode(session.token(), StandardCharsets.UTF_8)))
                .append("\" enctype=\"multipart/form-data\">")
                // the form's own key: sent twice, it hands in once
                .append(hidden("hand_in", UUID.randomUUID().toString()))
                .append("<label for=\"files\">Your files (1 to 10, each at most 10 MiB)</label>")
                .append("<input type=\"file\" id=\"files\" name=\"files\" multiple required>")
                .append("<button type=\"submit\">Hand in</button></form>");
        body.append("<h2>Your submissions</h2>");
        if (view.submissions().isEmpty()) {
            body.append("<p>You have not handed in anything yet.</p>");
        } else {
            body.append("<ol class=\"submissions\" reversed>");
            view.submissions().forEach(handed -> body.append(submission(handed)));
            body.append("</ol>");
            if (view.total() > view.submissions().size()) {
                body.append("<p>The latest ")
                        .append(view.submissions().size())
                        .append(" of your ")
                        .append(view.total())
                        .append(" submissions.</p>");
            }
        }
        return page(status, LtiDeepLinking.titleOf(homework), body.toString(), null, launch.frameOrigins());
    }

    private static String document(HomeworkFile file, boolean named) {
        return (named ? "<h3>" + escape(file.fileName()) + "</h3>" : "") + "<div class=\"document\">"
                + escape(file.content()) + "</div>";
    }

    private static final DateTimeFormatter HANDED_IN = DateTimeFormatter.ofPattern(
                    "d MMMM yyyy, HH:mm 'UTC'", Locale.ENGLISH)
            .withZone(ZoneOffset.UTC);

    private static String submission(LtiHomework.Handed handed) {
        Submission submission = handed.submission();
        StringBuilder item = new StringBuilder("<li><p><strong>Handed in ")
                .append(HANDED_IN.format(submission.createdAt()))
                .append("</strong>: ")
                .append(escape(statusOf(submission)));
        if (!submission.grade().isEmpty()) {
            item.append(" Grade <strong>").append(escape(submission.grade())).append("</strong>.");
        }
        item.append("</p>");
        if (submission.comment() != null) {
            item.append("<p>Your teacher: ")
                    .append(escape(submission.comment()))
                    .append("</p>");
        }
        List<GradedCriterion> criteria = submission.criteria();
        if (!criteria.isEmpty()) {
            item.append("<table><caption>Points per criterion</caption><tbody>");
            criteria.forEach(criterion -> {
                Verdict.CriterionScore score = criterion.score();
                item.append("<tr><th scope=\"row\">")
                        .append(escape(score.title()))
                        .append("</th><td>")
                        .append(score.points())
                        .append(" of ")
                        .append(score.maxPoints());
                if (criterion.gradedBy() == GradedCriterion.GradedBy.TEACHER) {
                    item.append(", your teacher's points");
                    if (criterion.comment() != null) {
                        item.append(": ").append(escape(criterion.comment()));
                    }
                }
                item.append("</td></tr>");
            });
            item.append("</tbody></table>");
        }
        if (!submission.regradeRequests().isEmpty()) {
            item.append("<ul class=\"regrades\">");
            submission.regradeRequests().forEach(request -> {
                String about = criteria.stream()
                        .filter(criterion -> criterion.score().criterionId().equals(request.criterionId()))
                        .map(criterion -> "“" + criterion.score().title() + "”")
                        .findFirst()
                        .orElse("the whole grade");
                item.append("<li><p>You asked for a regrade of ")
                        .append(escape(about))
                        .append(": ")
                        .append(escape(request.message()))
                        .append("</p>");
                item.append(
                        request.answer() == null
                                ? "<p>Waiting for your teacher's answer.</p>"
                                : "<p>Your teacher answered: " + escape(request.answer()) + "</p>");
                item.append("</li>");
            });
            item.append("</ul>");
        }
        String chatLink = handed.chatLink();
        if (chatLink == null) {
            item.append("<p>Its review chat was deleted.</p></li>");
        } else {
            item.append("<p><a href=\"")
                    .append(escape(chatLink))
                    .append("\" target=\"_blank\" rel=\"noopener\">Read the review and ask about it</a></p></li>");
        }
        return item.toString();
    }

    private static String statusOf(Submission submission) {
        return switch (submission.status()) {
            case SUBMITTED -> "waiting for its review.";
            case REVIEWED -> "reviewed.";
            case APPROVED -> "approved by your teacher.";
            case NEEDS_REVISION -> "your teacher asks for a revision.";
        };
    }

    private static String hidden(String name, String value) {
        return "<input type=\"hidden\" name=\"" + name + "\" value=\"" + escape(value) + "\">";
    }

    /** A page of a launch's session: framed by the launch's platform alone. */
    static ResponseEntity<String> sessionPage(HttpStatus status, String title, String content, LtiLaunch launch) {
        return page(status, title, content, null, launch.frameOrigins());
    }

    static String signedInAs(LtiLaunch launch, String role) {
        return "<p>You are signed in as <strong>" + escape(launch.name() == null ? launch.sub() : launch.name())
                + "</strong>" + role + (launch.context() == null ? "" : ", " + escape(courseOf(launch.context())))
                + ".</p>";
    }

    /** A page that acts for no one: framed anywhere. */
    private static ResponseEntity<String> page(HttpStatus status, String title, String content) {
        return page(status, title, content, null, ANYWHERE);
    }

    private static ResponseEntity<String> page(
            HttpStatus status, String title, String content, @Nullable String postsTo, List<String> framedBy) {
        String html = "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
                + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
                + "<title>" + escape(title) + "</title><link rel=\"stylesheet\" href=\"/lti/page.css\"></head>"
                + "<body><main><h1>" + escape(title) + "</h1>" + content + "</main></body></html>";
        String policy = POLICY + (framedBy.isEmpty() ? "'none'" : String.join(" ", framedBy));
        policy = postsTo == null
                ? policy
                : policy.replace("form-action 'self'", "form-action 'self' " + postsTo)
                        .replace("default-src 'none';", "default-src 'none'; script-src 'self';");
        return ResponseEntity.status(status)
                .contentType(HTML)
                .cacheControl(CacheControl.noStore())
                .header("Content-Security-Policy", policy)
                .header("Referrer-Policy", "no-referrer")
                .header("X-Content-Type-Options", "nosniff")
                .body(html);
    }

    static String escape(@Nullable String text) {
        return text == null ? "" : HtmlUtils.htmlEscape(text, StandardCharsets.UTF_8.name());
    }
}
