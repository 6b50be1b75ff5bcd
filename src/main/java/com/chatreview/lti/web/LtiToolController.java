package com.chatreview.lti.web;

import com.chatreview.kernel.FieldProblem;
import com.chatreview.kernel.ServiceError;
import com.chatreview.lti.LaunchRefused;
import com.chatreview.lti.LtiPlatform;
import com.chatreview.lti.LtiSettings;
import com.chatreview.lti.course.LtiClass;
import com.chatreview.lti.course.LtiHomework;
import com.chatreview.lti.deeplinking.LtiDeepLinking;
import com.chatreview.lti.launch.LtiLaunch;
import com.chatreview.lti.launch.LtiLaunches;
import com.chatreview.lti.launch.LtiRequestLimits;
import com.chatreview.lti.launch.LtiSession;
import com.chatreview.lti.launch.LtiSessions;
import com.chatreview.lti.platforms.LtiRegistrations;
import com.chatreview.lti.web.LtiRequestLimiter.Admitted;
import com.chatreview.lti.web.LtiRequestLimiter.By;
import com.chatreview.submission.IncomingFile;
import com.chatreview.submission.SubmissionId;
import com.chatreview.submission.SubmissionStatus;
import com.chatreview.web.ProblemStatus;
import io.swagger.v3.oas.annotations.Hidden;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.util.MultiValueMap;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestAttribute;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RequestPart;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.multipart.MaxUploadSizeExceededException;
import org.springframework.web.multipart.MultipartException;
import org.springframework.web.multipart.MultipartFile;

/**
 * The tool's own endpoints (docs/lti.md): the login a platform starts, and the launch it posts back. The
 * platform and the user's browser call them, with no API key: what they carry is checked instead. Not in the REST
 * API's document: they answer a browser with redirects and pages, not problem bodies (docs/lti.md lists them).
 */
@Hidden
@RestController
@RequestMapping("/lti")
@Tag(name = "LTI")
class LtiToolController {

    private static final Logger log = LoggerFactory.getLogger(LtiToolController.class);

    private final LtiLaunches launches;
    private final LtiDeepLinking deepLinking;
    private final LtiHomework homeworkPages;
    private final LtiRegistrations registrations;
    private final LtiSettings settings;
    private final LtiSessions sessions;
    private final LtiClass classPages;
    private final LtiRequestLimits admission;

    LtiToolController(
            LtiLaunches launches,
            LtiDeepLinking deepLinking,
            LtiHomework homeworkPages,
            LtiRegistrations registrations,
            LtiSettings settings,
            LtiSessions sessions,
            LtiClass classPages,
            LtiRequestLimits admission) {
        this.classPages = classPages;
        this.admission = admission;
        this.sessions = sessions;
        this.launches = launches;
        this.deepLinking = deepLinking;
        this.homeworkPages = homeworkPages;
        this.registrations = registrations;
        this.settings = settings;
    }

    @Admitted(By.LOGIN)
    @RequestMapping(
            path = "/login",
            method = {RequestMethod.GET, RequestMethod.POST})
    @Operation(
            summary = "OIDC login initiation by the platform",
            description = "Redirects the browser to the platform's authorization endpoint; state and nonce are kept"
                    + " by the service, no cookie is set.")
    ResponseEntity<String> login(
            @RequestParam(name = "iss", required = false) @Nullable String issuer,
            @RequestParam(name = "login_hint", required = false) @Nullable String loginHint,
            @RequestParam(name = "target_link_uri", required = false) @Nullable String targetLinkUri,
            @RequestParam(name = "lti_message_hint", required = false) @Nullable String messageHint,
            @RequestParam(name = "client_id", required = false) @Nullable String clientId,
            @RequestParam(name = "lti_deployment_id", required = false) @Nullable String deploymentId,
            @RequestParam(name = "lti_storage_target", required = false) @Nullable String storageTarget) {
        LtiLaunches.Login login = launches.login(
                new LtiLaunches.LoginInitiation(
                        issuer, loginHint, targetLinkUri, messageHint, clientId, deploymentId, storageTarget),
                launchUrl());
        if (login.storage() != null) {
            // the page puts the login's value in the LMS's storage, then goes on to the LMS
            return LtiPages.storingLogin(login.storage(), login.authorization());
        }
        return ResponseEntity.status(HttpStatus.FOUND)
                .location(login.authorization())
                .cacheControl(CacheControl.noStore())
                .build();
    }

    @Admitted(By.ADDRESS)
    @GetMapping("/register")
    @Operation(
            summary = "Dynamic Registration: the LMS opens the tenant's registration link",
            description = "Reads the platform's openid_configuration, registers the tool at its registration endpoint"
                    + " and the platform for the link's tenant; the page tells the LMS it may close it.")
    ResponseEntity<String> register(
            @RequestParam(name = "link", required = false) @Nullable String link,
            @RequestParam(name = "openid_configuration", required = false) @Nullable String openidConfiguration,
            @RequestParam(name = "registration_token", required = false) @Nullable String registrationToken) {
        LtiPlatform registered = registrations.register(
                link, openidConfiguration, registrationToken, new LtiRegistrations.ToolUrls(base()));
        return LtiPages.registered(registered);
    }

    @Admitted(By.ADDRESS)
    @PostMapping("/launch")
    @Operation(
            summary = "The launch: the platform's id_token, posted by the browser",
            description = "Checked against the platform's JWKS and the login it answers; a page says why if not.")
    ResponseEntity<String> launch(
            @RequestParam(name = "id_token", required = false) @Nullable String idToken,
            @RequestParam(name = "state", required = false) @Nullable String state,
            @RequestParam(name = "error", required = false) @Nullable String error,
            @RequestParam(name = "error_description", required = false) @Nullable String errorDescription) {
        LtiLaunches.Launched launched = launches.launch(idToken, state, error, errorDescription);
        LtiLaunch launch = launched.launch();
        LtiSession session;
        if (launch.deepLinkingRequest()) {
            session = deepLinking.open(launch);
        } else if (homeworkPages.homeworkOf(launch).isPresent()) {
            session = homeworkPages.open(launch);
        } else {
            return LtiPages.launched(launch);
        }
        LtiLaunches.PlatformStorage storage = launched.storage();
        String storedValueHash = launched.storedValueHash();
        if (storage != null && storedValueHash != null) {
            // the session opens once the browser shows the value its login put in the LMS's storage
            sessions.awaitBrowser(session, storedValueHash);
            return LtiPages.checkingBrowser(storage, session.token(), launch.frameOrigins());
        }
        if (launch.deepLinkingRequest()) {
            return picker(session, null, 0, HttpStatus.OK, List.of(), null, null);
        }
        // the page is reached by a GET of its own, so that reloading it does not post the launch again
        return seeOther(homeworkPage(session, null));
    }

    @Admitted(By.ADDRESS)
    @PostMapping("/launch/bound")
    @Operation(
            summary = "The launch's browser shows the value its login put in the LMS's storage",
            description = "Opens the launch's session if the value is the login's; ends it if not.")
    ResponseEntity<String> bound(
            @RequestParam(name = "session", required = false) @Nullable String token,
            @RequestParam(name = "value", required = false) @Nullable String value) {
        LtiSession session = sessions.bind(token, value)
                .orElseThrow(() -> LaunchRefused.because("This launch did not start in this browser (the LMS's"
                        + " storage does not hold its login's value), so it was not opened: a launch made for someone"
                        + " else, or by another browser, is refused. Launch the tool again from your course."));
        return seeOther(
                session.launch().deepLinkingRequest()
                        ? "/lti/deep-linking?session=" + session.token()
                        : homeworkPage(session, null));
    }

    @Admitted(By.SESSION)
    @GetMapping("/homework")
    @Operation(
            summary = "The homework page: the learner's (the task, the upload, their submissions), or the teacher's"
                    + " (the class's submissions, 50 a page)")
    ResponseEntity<String> homework(
            @RequestAttribute(LtiRequestLimiter.SESSION) LtiSession opened,
            @RequestParam(name = "uploaded", required = false) @Nullable String uploaded,
            @RequestParam(name = "offset", required = false) @Nullable String offset) {
        LtiSession session = homeworkPages.checked(opened);
        if (LtiClass.teaches(session)) {
            return LtiClassPages.classView(session, classPages.view(session, parsedOffset(offset)));
        }
        return LtiPages.homework(session, homeworkPages.view(session), uploaded, HttpStatus.OK, List.of());
    }

    @Admitted(By.SESSION)
    @GetMapping("/homework/submission")
    @Operation(summary = "The teacher's page of one submission: its review, the decision, its regrade requests")
    ResponseEntity<String> classSubmission(
            @RequestAttribute(LtiRequestLimiter.SESSION) LtiSession opened,
            @RequestParam(name = "id", required = false) @Nullable String id,
            @RequestParam(name = "done", required = false) @Nullable String done) {
        LtiSession session = classPages.checked(opened);
        return LtiClassPages.submission(session, classPages.submission(session, id), done, HttpStatus.OK, List.of());
    }

    @Admitted(By.SESSION)
    @PostMapping(path = "/homework/decision", consumes = MediaType.APPLICATION_FORM_URLENCODED_VALUE)
    @Operation(summary = "The teacher's decision from the page, under the rules of the API's")
    ResponseEntity<String> decide(
            @RequestAttribute(LtiRequestLimiter.SESSION) LtiSession opened,
            @RequestParam MultiValueMap<String, String> form) {
        LtiSession session = classPages.checked(opened);
        String submission = form.getFirst("submission");
        List<String> problems = new ArrayList<>();
        SubmissionStatus status = SubmissionStatus.of(Objects.requireNonNullElse(form.getFirst("status"), ""))
                .filter(SubmissionStatus::teacherDecision)
                .orElse(null);
        if (status == null) {
            problems.add("Choose Approved or Needs revision.");
        }
        Map<String, Integer> points = new LinkedHashMap<>();
        Map<String, String> comments = new LinkedHashMap<>();
        form.forEach((name, values) -> {
            String value = values.isEmpty() ? "" : Objects.requireNonNullElse(values.getFirst(), "");
            if (name.startsWith("points.")) {
                try {
                    points.put(name.substring("points.".length()), Integer.parseInt(value.strip()));
                } catch (NumberFormatException notWhole) {
                    problems.add("The points of " + name.substring("points.".length()) + " must be a whole number.");
                }
            } else if (name.startsWith("comment.")) {
                comments.put(name.substring("comment.".length()), value);
            }
        });
        if (problems.isEmpty() && status != null) {
            try {
                classPages.decide(
                        session,
                        Objects.requireNonNullElse(submission, ""),
                        status,
                        points,
                        comments,
                        form.getFirst("comment"));
                return seeOther(
                        LtiClassPages.submissionPage(session, Objects.requireNonNullElse(submission, ""), "decided"));
            } catch (ServiceError refused) {
                problems.addAll(problems(
                        refused, "The decision was refused.", problem -> problem.field() + " " + problem.message()));
                return submissionWithProblems(session, submission, ProblemStatus.of(refused.code()), problems);
            }
        }
        return submissionWithProblems(session, submission, HttpStatus.BAD_REQUEST, problems);
    }

    @Admitted(By.SESSION)
    @PostMapping(path = "/homework/regrade-answer", consumes = MediaType.APPLICATION_FORM_URLENCODED_VALUE)
    @Operation(summary = "The teacher's answer to a regrade request from the page; it goes into the review chat")
    ResponseEntity<String> answerRegrade(
            @RequestAttribute(LtiRequestLimiter.SESSION) LtiSession opened,
            @RequestParam(name = "submission", required = false) @Nullable String submission,
            @RequestParam(name = "request", required = false) @Nullable String request,
            @RequestParam(name = "answer", required = false) @Nullable String answer) {
        LtiSession session = classPages.checked(opened);
        String text = answer == null ? "" : answer.strip();
        List<String> problems = new ArrayList<>();
        if (text.isEmpty() || text.length() > 4_000) {
            problems.add("Write an answer of 1 to 4,000 characters.");
        } else {
            try {
                classPages.answer(session, Objects.requireNonNullElse(submission, ""), request, text);
                return seeOther(
                        LtiClassPages.submissionPage(session, Objects.requireNonNullElse(submission, ""), "answered"));
            } catch (ServiceError refused) {
                problems.addAll(problems(refused, "The answer was refused.", problem -> problem.message()));
                return submissionWithProblems(session, submission, ProblemStatus.of(refused.code()), problems);
            }
        }
        return submissionWithProblems(session, submission, HttpStatus.BAD_REQUEST, problems);
    }

    @Admitted(By.HAND_IN)
    @PostMapping(path = "/homework/submissions", consumes = MediaType.MULTIPART_FORM_DATA_VALUE)
    @Operation(summary = "Hands in the learner's files, under the upload endpoint's rules")
    ResponseEntity<String> handIn(
            @RequestAttribute(LtiRequestLimiter.SESSION) LtiSession opened,
            @RequestParam(name = "hand_in", required = false) @Nullable String handInKey,
            @RequestPart(name = "files", required = false) @Nullable List<MultipartFile> files) {
        LtiSession session = homeworkPages.checked(opened);
        List<IncomingFile> incoming = files == null
                ? List.of()
                : files.stream()
                        .filter(file -> !(file.isEmpty()
                                && (file.getOriginalFilename() == null
                                        || file.getOriginalFilename().isEmpty())))
                        .map(file -> new IncomingFile(file.getOriginalFilename(), file.getSize(), file))
                        .toList();
        try {
            SubmissionId handed = homeworkPages.upload(session, handInKey, incoming);
            return seeOther(homeworkPage(session, handed.value().toString()));
        } catch (ServiceError refused) {
            if (refused.code() == ServiceError.Code.IDEMPOTENCY_KEY_IN_USE) {
                // the same form, sent again while its first hand-in runs: the page lists it once it is in
                return seeOther(homeworkPage(session, null));
            }
            List<String> problems = problems(
                    refused,
                    "The files were refused.",
                    problem -> problem.message().isEmpty() ? problem.field() : problem.message());
            return LtiPages.homework(
                    session, homeworkPages.view(session), null, ProblemStatus.of(refused.code()), problems);
        }
    }

    private static String homeworkPage(LtiSession session, @Nullable String uploaded) {
        return "/lti/homework?session=" + session.token() + (uploaded == null ? "" : "&uploaded=" + uploaded);
    }

    private static ResponseEntity<String> seeOther(String location) {
        return ResponseEntity.status(HttpStatus.SEE_OTHER)
                .location(URI.create(location))
                .cacheControl(CacheControl.noStore())
                .header("Referrer-Policy", "no-referrer")
                .build();
    }

    @Admitted(By.SESSION)
    @GetMapping("/deep-linking")
    @Operation(summary = "The teacher's choice of homework for the LMS, searched or paged")
    ResponseEntity<String> deepLinking(
            @RequestAttribute(LtiRequestLimiter.SESSION) LtiSession opened,
            @RequestParam(name = "search", required = false) @Nullable String search,
            @RequestParam(name = "offset", required = false) @Nullable String offset) {
        LtiSession session = deepLinking.checked(opened);
        return picker(session, search, parsedOffset(offset), HttpStatus.OK, List.of(), null, null);
    }

    @Admitted(By.SESSION)
    @PostMapping("/deep-linking/choose")
    @Operation(summary = "Adds one of the tenant's homework to the LMS course: the signed answer, posted to the LMS")
    ResponseEntity<String> choose(
            @RequestAttribute(LtiRequestLimiter.SESSION) LtiSession opened,
            @RequestParam(name = "homework_id", required = false) @Nullable String homeworkId) {
        LtiSession session = deepLinking.checked(opened);
        LtiDeepLinking.Response response = deepLinking.choose(session, homeworkId, launchUrl());
        return LtiPages.deepLinkingResponse(response, session.launch().frameOrigins());
    }

    @Admitted(By.SESSION)
    @PostMapping("/deep-linking/create")
    @Operation(summary = "Publishes a new homework and adds it to the LMS course")
    ResponseEntity<String> create(
            @RequestAttribute(LtiRequestLimiter.SESSION) LtiSession opened,
            @RequestParam(name = "title", required = false) @Nullable String title,
            @RequestParam(name = "task", required = false) @Nullable String task) {
        LtiSession session = deepLinking.checked(opened);
        try {
            LtiDeepLinking.Response response = deepLinking.create(session, title, task, launchUrl());
            return LtiPages.deepLinkingResponse(response, session.launch().frameOrigins());
        } catch (ServiceError refused) {
            List<String> problems = problems(
                    refused,
                    "The homework was refused.",
                    problem -> fieldName(problem.field()) + " " + problem.message());
            return picker(session, null, 0, ProblemStatus.of(refused.code()), problems, title, task);
        }
    }

    private ResponseEntity<String> picker(
            LtiSession session,
            @Nullable String search,
            int offset,
            HttpStatus status,
            List<String> problems,
            @Nullable String title,
            @Nullable String task) {
        return LtiPages.picker(
                session, deepLinking.choices(session, search, offset), search, offset, status, problems, title, task);
    }

    /** What a refusal says on a page: each field's problem, worded for the page, or its message. */
    private static List<String> problems(
            ServiceError refused, String otherwise, Function<FieldProblem, String> worded) {
        return refused.errors().isEmpty()
                ? List.of(Objects.requireNonNullElse(refused.getMessage(), otherwise))
                : refused.errors().stream().map(worded).toList();
    }

    /** The homework's field names as the teacher knows them on the page. */
    private static String fieldName(String field) {
        return switch (field) {
            case "assignmentId" -> "The title";
            case "files", "files[0].content" -> "The task";
            default -> field;
        };
    }

    /** The teacher's page of the submission again, saying why what was sent was not taken. */
    private ResponseEntity<String> submissionWithProblems(
            LtiSession session, @Nullable String submission, HttpStatus status, List<String> problems) {
        return LtiClassPages.submission(session, classPages.submission(session, submission), null, status, problems);
    }

    private static int parsedOffset(@Nullable String offset) {
        if (offset == null) {
            return 0;
        }
        try {
            return Math.max(0, Math.min(Integer.parseInt(offset.strip()), 1_000_000));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    @ExceptionHandler(LaunchRefused.class)
    ResponseEntity<String> refused(LaunchRefused refused, HttpServletRequest request) {
        if (refused.kind() == LaunchRefused.Kind.REFUSED) {
            LtiRequestLimiter.refused(request, admission);
        }
        return LtiPages.refused(refused);
    }

    /** Files larger than the service takes are refused as the upload endpoint refuses them, on a page. */
    @ExceptionHandler(MaxUploadSizeExceededException.class)
    ResponseEntity<String> tooLarge(MaxUploadSizeExceededException tooLarge) {
        return LtiPages.refused(LaunchRefused.tooLarge(
                "The files are larger than the service takes: each at most 10 MiB, 50 MiB in all. Go back and hand"
                        + " in smaller files."));
    }

    /** A body that is no multipart form (broken boundaries, a part cut short) is the request's fault. */
    @ExceptionHandler(MultipartException.class)
    ResponseEntity<String> malformed(MultipartException malformed) {
        return LtiPages.refused(
                LaunchRefused.malformedUpload("The files did not arrive whole. Go back and hand them in again."));
    }

    /** Whatever else fails (the database, a setting) is the service's: a page, never a stack trace. */
    @ExceptionHandler(RuntimeException.class)
    ResponseEntity<String> failed(RuntimeException failure) {
        log.warn("An LTI login or launch failed", failure);
        return LtiPages.refused(LaunchRefused.unavailable(
                "The tool could not finish opening. Launch it again from your course in a moment."));
    }

    /** The launch URL, as platforms have it registered: from {@code PUBLIC_URL}, else the request's own base. */
    private String launchUrl() {
        return base() + "/lti/launch";
    }

    private String base() {
        return ToolBase.required(settings);
    }
}
