package com.chatreview.lti.deeplinking;

import com.chatreview.homework.Course;
import com.chatreview.homework.Homework;
import com.chatreview.homework.HomeworkCatalog;
import com.chatreview.homework.HomeworkId;
import com.chatreview.homework.HomeworkQuery;
import com.chatreview.homework.NewHomework;
import com.chatreview.kernel.Ids;
import com.chatreview.kernel.Page;
import com.chatreview.kernel.PageRequest;
import com.chatreview.lti.LaunchRefused;
import com.chatreview.lti.keys.ToolKeys;
import com.chatreview.lti.launch.LtiLaunch;
import com.chatreview.lti.launch.LtiLaunches;
import com.chatreview.lti.launch.LtiSession;
import com.chatreview.lti.launch.LtiSessions;
import com.chatreview.tenancy.TenantId;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Deep linking for teachers (docs/lti.md, Adding homework to a course): the LMS asks the tool for content; the teacher
 * picks one of the tenant's homework, or writes a new one, and the tool answers with a signed
 * {@code LtiDeepLinkingResponse}: one resource link that opens the homework, with a line item whose
 * {@code scoreMaximum} is the rubric's total points, so that the LMS makes the gradebook column grades go to.
 */
@Component
public class LtiDeepLinking {

    static final String CONTENT_ITEMS = "https://purl.imsglobal.org/spec/lti-dl/claim/content_items";
    static final String DATA = "https://purl.imsglobal.org/spec/lti-dl/claim/data";
    static final String RESOURCE_LINK = "ltiResourceLink";
    /** The custom parameter that names the homework a resource link opens. */
    public static final String HOMEWORK_PARAMETER = "homework_id";

    private static final Duration RESPONSE_LIFETIME = Duration.ofMinutes(10);
    private static final int PICKER_PAGE = 20;

    private final HomeworkCatalog homework;
    private final ToolKeys keys;
    private final LtiSessions sessions;
    private final TransactionTemplate transaction;
    private final Clock clock;

    LtiDeepLinking(
            HomeworkCatalog homework,
            ToolKeys keys,
            LtiSessions sessions,
            TransactionTemplate transaction,
            Clock clock) {
        this.transaction = transaction;
        this.homework = homework;
        this.keys = keys;
        this.sessions = sessions;
        this.clock = clock;
    }

    /** The signed answer to the LMS, where the browser posts it (as the form field {@code JWT}), and what it adds. */
    public record Response(String returnUrl, String jwt, String title) {}

    /**
     * Opens the session of a teacher's deep linking request, checked.
     *
     * @throws LaunchRefused for a learner, or for an LMS that takes no resource links
     */
    public LtiSession open(LtiLaunch launch) {
        check(launch);
        return sessions.open(launch);
    }

    /**
     * The session, checked to be one of the picker's: a teacher's deep linking request.
     *
     * @throws LaunchRefused when it is not
     */
    public LtiSession checked(LtiSession session) {
        check(session.launch());
        return session;
    }

    private static void check(LtiLaunch launch) {
        LtiLaunch.DeepLinking request = launch.deepLinking();
        if (!launch.deepLinkingRequest() || request == null) {
            throw LaunchRefused.because("This page is not one for adding content to a course.");
        }
        if (!launch.teaches()) {
            throw LaunchRefused.because("Only teachers add homework to a course. Ask your teacher to add it.");
        }
        if (!request.acceptTypes().contains(RESOURCE_LINK)) {
            throw LaunchRefused.because(
                    "The LMS takes no links to the tool here (it accepts " + request.acceptTypes() + ").");
        }
    }

    /** The tenant's homework to pick from, newest first, matching {@code search} when given. */
    public Page<Homework> choices(LtiSession session, @Nullable String search, int offset) {
        return homework.list(
                session.launch().platform().tenantId(),
                new HomeworkQuery(null, null, search == null || search.isBlank() ? null : search.strip()),
                new PageRequest(Math.max(0, offset), PICKER_PAGE, false));
    }

    /**
     * The answer placing one of the tenant's homework; the session ends (the LMS takes one answer per request).
     *
     * @throws LaunchRefused when the homework is not the tenant's
     */
    public Response choose(LtiSession session, @Nullable String homeworkId, String launchUrl) {
        TenantId tenant = session.launch().platform().tenantId();
        Homework chosen = Ids.uuid(Objects.requireNonNullElse(homeworkId, ""))
                .flatMap(id -> homework.find(tenant, HomeworkId.of(id)))
                .orElseThrow(() -> LaunchRefused.because("No such homework: pick one from the list."));
        take(session);
        return respond(session, chosen, launchUrl);
    }

    /**
     * Publishes a new homework with the task the teacher wrote, in the service's course for the LMS course (made on
     * first use, named after it), and answers placing it. The session ends in the same transaction: of a form sent
     * twice, one publishes, the other is refused; a homework refused leaves the session open for the next try.
     *
     * @throws com.chatreview.kernel.ServiceError as the homework endpoint refuses (the title or the task is not one
     *     a homework takes...)
     */
    public Response create(LtiSession session, @Nullable String title, @Nullable String task, String launchUrl) {
        return Objects.requireNonNull(transaction.execute(status -> {
            take(session);
            return publishAndRespond(session, title, task, launchUrl);
        }));
    }

    private Response publishAndRespond(
            LtiSession session, @Nullable String title, @Nullable String task, String launchUrl) {
        LtiLaunch launch = session.launch();
        TenantId tenant = launch.platform().tenantId();
        String teacher = launch.studentId();
        String courseName = courseName(launch);
        Course course = homework.courses(tenant, teacher).stream()
                .filter(candidate -> candidate.name().equals(courseName))
                .findFirst()
                .orElseGet(() -> homework.createCourse(tenant, teacher, courseName));
        Homework published = homework.publish(
                tenant,
                new NewHomework(
                        teacher,
                        course.id().toString(),
                        Objects.requireNonNullElse(title, ""),
                        null,
                        List.of(new NewHomework.NewFile("task", "task.md", Objects.requireNonNullElse(task, "")))));
        return respond(session, published, launchUrl);
    }

    /** The picker's session ends with its answer: the LMS takes one answer per deep linking request. */
    private void take(LtiSession session) {
        if (!sessions.take(session)) {
            throw LaunchRefused.because("This page was used already: the LMS takes one answer from it. To add more,"
                    + " open it again from your course.");
        }
    }

    private static String courseName(LtiLaunch launch) {
        LtiLaunch.Context context = launch.context();
        if (context == null) {
            return "LMS course";
        }
        String name =
                context.title() != null ? context.title() : context.label() != null ? context.label() : context.id();
        return name.length() > 200 ? name.substring(0, 200) : name;
    }

    private Response respond(LtiSession session, Homework placed, String launchUrl) {
        LtiLaunch launch = session.launch();
        LtiLaunch.DeepLinking request = Objects.requireNonNull(launch.deepLinking());
        String title = titleOf(placed);
        Map<String, Object> lineItem = new LinkedHashMap<>();
        lineItem.put("scoreMaximum", placed.rubric().totalPoints());
        lineItem.put("label", title);
        lineItem.put("resourceId", placed.id().value().toString());
        lineItem.put("tag", "homework-review");
        Map<String, Object> item = new LinkedHashMap<>();
        item.put("type", RESOURCE_LINK);
        item.put("title", title);
        item.put("url", launchUrl);
        item.put("custom", Map.of(HOMEWORK_PARAMETER, placed.id().value().toString()));
        if (request.lineItemAccepted()) {
            item.put("lineItem", lineItem);
        }
        Instant now = clock.instant();
        JWTClaimsSet.Builder claims = new JWTClaimsSet.Builder()
                .issuer(launch.platform().clientId())
                .audience(launch.platform().issuer())
                .issueTime(Date.from(now))
                .expirationTime(Date.from(now.plus(RESPONSE_LIFETIME)))
                .jwtID(UUID.randomUUID().toString())
                .claim("nonce", UUID.randomUUID().toString())
                .claim(LtiLaunches.CLAIM + "deployment_id", launch.deploymentId())
                .claim(LtiLaunches.CLAIM + "message_type", "LtiDeepLinkingResponse")
                .claim(LtiLaunches.CLAIM + "version", "1.3.0")
                .claim(CONTENT_ITEMS, List.of(item));
        if (request.data() != null) {
            claims.claim(DATA, request.data());
        }
        String jwt = signed(launch.platform().id(), claims.build());
        return new Response(request.returnUrl(), jwt, title);
    }

    /** What the LMS shows for the homework: its subject and assignment id, or the assignment id alone. */
    public static String titleOf(Homework placed) {
        return placed.subject() == null ? placed.assignmentId() : placed.subject() + " (" + placed.assignmentId() + ")";
    }

    private String signed(UUID platform, JWTClaimsSet claims) {
        RSAKey key = keys.signingKey(platform);
        SignedJWT jwt = new SignedJWT(
                new JWSHeader.Builder(JWSAlgorithm.RS256)
                        .keyID(key.getKeyID())
                        .type(JOSEObjectType.JWT)
                        .build(),
                claims);
        try {
            jwt.sign(new RSASSASigner(key));
        } catch (JOSEException e) {
            throw new IllegalStateException("Signing a deep linking response failed", e);
        }
        return jwt.serialize();
    }
}
