package com.chatreview.lti.course;

import com.chatreview.chat.ChatErrors;
import com.chatreview.chatui.ChatUi;
import com.chatreview.homework.Homework;
import com.chatreview.homework.HomeworkCatalog;
import com.chatreview.homework.HomeworkId;
import com.chatreview.idempotency.IdempotentRequests;
import com.chatreview.kernel.Ids;
import com.chatreview.kernel.Page;
import com.chatreview.kernel.PageRequest;
import com.chatreview.kernel.Sha256;
import com.chatreview.lti.LaunchRefused;
import com.chatreview.lti.deeplinking.LtiDeepLinking;
import com.chatreview.lti.grades.GradePassback;
import com.chatreview.lti.launch.LtiLaunch;
import com.chatreview.lti.launch.LtiSession;
import com.chatreview.lti.launch.LtiSessions;
import com.chatreview.submission.IncomingFile;
import com.chatreview.submission.Submission;
import com.chatreview.submission.SubmissionId;
import com.chatreview.submission.SubmissionManagement;
import com.chatreview.tenancy.TenantId;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * The homework page a learner's launch opens (docs/lti.md, The homework page): the homework of the resource link's
 * {@code homework_id}, an upload under the same rules as the upload endpoint, and the learner's own submissions,
 * each with a link to its review chat. The learner is {@code lti:{platform id}:{sub}} wherever the service names them.
 */
@Component
public class LtiHomework {

    /** The submissions the page shows, newest first. */
    static final int SHOWN = 20;

    private final HomeworkCatalog homework;
    private final SubmissionManagement submissions;
    private final LtiSessions sessions;
    private final ChatUi chatUi;
    private final IdempotentRequests idempotent;
    private final GradePassback grades;
    private final JsonMapper json;
    private final LtiPeople people;

    LtiHomework(
            HomeworkCatalog homework,
            SubmissionManagement submissions,
            LtiSessions sessions,
            ChatUi chatUi,
            IdempotentRequests idempotent,
            GradePassback grades,
            JsonMapper json,
            LtiPeople people) {
        this.people = people;
        this.idempotent = idempotent;
        this.grades = grades;
        this.json = json;
        this.homework = homework;
        this.submissions = submissions;
        this.sessions = sessions;
        this.chatUi = chatUi;
    }

    /** What the page shows: the homework, the learner's latest submissions (and how many there are in all). */
    public record View(Homework homework, List<Handed> submissions, long total) {}

    /**
     * A submission of the learner, with the link that opens its review chat (the chat page, with an embed token); no
     * link when the tenant deleted the chat.
     */
    public record Handed(Submission submission, @Nullable String chatLink) {}

    /** The homework the launch's resource link opens, if it names one of the tenant's. */
    public Optional<Homework> homeworkOf(LtiLaunch launch) {
        String named = launch.custom().get(LtiDeepLinking.HOMEWORK_PARAMETER);
        if (named == null || launch.deepLinkingRequest()) {
            return Optional.empty();
        }
        return Ids.uuid(named.strip())
                .flatMap(id -> homework.find(launch.platform().tenantId(), HomeworkId.of(id)));
    }

    /**
     * Opens the session of a launch of a homework; the launch's gradebook column, if it has one, receives the
     * learner's scores of the homework from now on.
     */
    public LtiSession open(LtiLaunch launch) {
        homeworkOf(launch).ifPresent(opened -> grades.launched(launch, opened));
        people.remember(launch);
        return sessions.open(launch);
    }

    /**
     * The session, checked to be one of a homework page.
     *
     * @throws LaunchRefused when it is not one of a homework's launch
     */
    public LtiSession checked(LtiSession session) {
        if (homeworkOf(session.launch()).isEmpty()) {
            throw LaunchRefused.because("This page is not one of a homework. Open the homework from your course.");
        }
        return session;
    }

    public View view(LtiSession session) {
        LtiLaunch launch = session.launch();
        Homework opened = homeworkOf(launch)
                .orElseThrow(() -> LaunchRefused.because("The homework of this link no longer exists."));
        Page<Submission> theirs = submissions.submissions(
                launch.platform().tenantId(), opened.id(), launch.studentId(), new PageRequest(0, SHOWN, false));
        List<Handed> handed = theirs.items().stream()
                .map(submission -> new Handed(submission, chatLink(submission)))
                .toList();
        return new View(opened, handed, theirs.total());
    }

    /**
     * Hands in the learner's files, as the upload endpoint does with the learner as {@code studentId}, once per
     * {@code handInKey}: the form's own key (a UUID, new with each page), so that a form sent twice (a double click,
     * a reload that posts again) hands in once, and the second answer names the same submission. Kept as the upload
     * endpoint keeps an {@code Idempotency-Key} (24 hours), under a key of its own for the learner.
     *
     * @throws com.chatreview.kernel.ServiceError as the upload endpoint refuses (no files, too many, too large, the
     *     tenant's storage spent...), or while the same form's first hand-in is still running
     */
    public SubmissionId upload(LtiSession session, @Nullable String handInKey, List<IncomingFile> files) {
        LtiLaunch launch = session.launch();
        Homework opened = homeworkOf(launch)
                .orElseThrow(() -> LaunchRefused.because("The homework of this link no longer exists."));
        TenantId tenant = launch.platform().tenantId();
        String key = handInKey == null || Ids.uuid(handInKey.strip()).isEmpty()
                ? null
                : "lti-hand-in:"
                        + Base64.getUrlEncoder().withoutPadding().encodeToString(Sha256.of(launch.studentId())) + ":"
                        + handInKey.strip();
        ResponseEntity<Object> answer = idempotent.run(
                tenant.value(),
                key,
                "lti-hand-in",
                (launch.studentId() + "\n" + opened.id().value()).getBytes(StandardCharsets.UTF_8),
                () -> new IdempotentRequests.Response(
                        HttpStatus.SEE_OTHER,
                        // studentId, as the upload endpoint's answer names it: erased with the learner
                        Map.of(
                                "studentId",
                                launch.studentId(),
                                "id",
                                submissions
                                        .receive(tenant, opened.id(), submissions.prepare(launch.studentId(), files))
                                        .id()
                                        .value()
                                        .toString())));
        Object body = Objects.requireNonNull(answer.getBody(), "a hand-in's answer names its submission");
        // the first answer carries what the work returned; a replay, the JSON kept of it
        String id = body instanceof Map<?, ?> fields
                ? String.valueOf(fields.get("id"))
                : json.readTree(body.toString()).get("id").asString();
        return SubmissionId.of(UUID.fromString(id));
    }

    private @Nullable String chatLink(Submission submission) {
        String token;
        try {
            token = chatUi.mintEmbedToken(submission.tenantId(), submission.chatId(), null)
                    .token();
        } catch (ChatErrors.ChatNotFound deleted) {
            return null;
        }
        return chatUi.pageUrl() + "/?chat_id=" + submission.chatId().value() + "&token="
                + URLEncoder.encode(token, StandardCharsets.UTF_8);
    }
}
