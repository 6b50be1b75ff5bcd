package com.chatreview.submission.web;

import com.chatreview.chatui.ChatUi;
import com.chatreview.grading.Rubric;
import com.chatreview.homework.HomeworkId;
import com.chatreview.idempotency.IdempotentRequests;
import com.chatreview.kernel.InvalidInput;
import com.chatreview.kernel.Page;
import com.chatreview.kernel.PageRequest;
import com.chatreview.submission.IncomingFile;
import com.chatreview.submission.PreparedUpload;
import com.chatreview.submission.Submission;
import com.chatreview.submission.SubmissionId;
import com.chatreview.submission.SubmissionManagement;
import com.chatreview.submission.SubmissionStatus;
import com.chatreview.submission.TeacherDecision;
import com.chatreview.submission.TeacherDecision.GivenPoints;
import com.chatreview.submission.json.SubmissionBodies;
import com.chatreview.submission.json.SubmissionBodies.SubmissionBody;
import com.chatreview.submission.json.SubmissionBodies.SubmissionList;
import com.chatreview.tenancy.Tenant;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RequestPart;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.multipart.MultipartFile;

/** Endpoint 8 of the interface, and reading and deciding submissions (docs/api.md, Homework). */
@RestController
@RequestMapping("/v1/homeworks/{homeworkId}/submissions")
@Tag(name = "Submissions")
@SecurityRequirement(name = "x-tenant-api-secret")
class SubmissionController {

    private final SubmissionManagement submissions;
    private final IdempotentRequests idempotency;
    private final ChatUi chatUi;

    SubmissionController(SubmissionManagement submissions, IdempotentRequests idempotency, ChatUi chatUi) {
        this.submissions = submissions;
        this.idempotency = idempotency;
        this.chatUi = chatUi;
    }

    record DecisionRequest(
            @Schema(allowableValues = {"approved", "needs_revision"})
            String status,

            @Schema(description = "The teacher deciding, kept in the audit trail")
            String teacherId,

            @Schema(description = "Points for some criteria, each replacing the review's for it")
            List<GivenPointsRequest> criteria,

            @Schema(description = "A comment on the whole submission (at most 4,000 characters); empty removes it")
            String comment) {}

    record GivenPointsRequest(
            @Schema(requiredMode = Schema.RequiredMode.REQUIRED)
            String criterionId,

            @Schema(requiredMode = Schema.RequiredMode.REQUIRED, description = "A whole number, 0 to the maximum")
            BigDecimal points,

            @Schema(description = "Why, for the student (at most 4,000 characters)")
            String comment) {}

    /** The form of the upload, as the OpenAPI document shows it: both are parts of the multipart body. */
    record UploadForm(
            @Schema(requiredMode = Schema.RequiredMode.REQUIRED)
            String studentId,

            @Schema(requiredMode = Schema.RequiredMode.REQUIRED)
            @ArraySchema(schema = @Schema(type = "string", format = "binary"), minItems = 1, maxItems = 10)
            List<MultipartFile> files) {}

    @PostMapping(consumes = MediaType.MULTIPART_FORM_DATA_VALUE)
    @Operation(summary = "Upload a student's solution files (1 to 10, each at most 10 MiB)")
    @io.swagger.v3.oas.annotations.parameters.RequestBody(
            required = true,
            content =
                    @Content(
                            mediaType = MediaType.MULTIPART_FORM_DATA_VALUE,
                            schema = @Schema(implementation = UploadForm.class)))
    @ApiResponse(
            responseCode = "201",
            content =
                    @Content(
                            mediaType = MediaType.APPLICATION_JSON_VALUE,
                            schema = @Schema(implementation = SubmissionBody.class)))
    ResponseEntity<Object> submit(
            Tenant tenant,
            @PathVariable UUID homeworkId,
            @Parameter(hidden = true) @RequestParam(required = false) String studentId,
            @Parameter(hidden = true) @RequestPart(name = "files", required = false) List<MultipartFile> files,
            @RequestHeader(name = IdempotentRequests.HEADER, required = false) String idempotencyKey) {
        List<IncomingFile> incoming = files == null
                ? List.of()
                : files.stream()
                        .map(file -> new IncomingFile(file.getOriginalFilename(), file.getSize(), file))
                        .toList();
        PreparedUpload upload = submissions.prepare(studentId, incoming);
        byte[] request = (homeworkId + "\n" + java.util.HexFormat.of().formatHex(upload.fingerprint()))
                .getBytes(StandardCharsets.UTF_8);
        String chatUi = chatUiUrl();
        return idempotency.run(
                tenant.id().value(),
                idempotencyKey,
                "POST /v1/homeworks/{homeworkId}/submissions",
                request,
                () -> new IdempotentRequests.Response(
                        HttpStatus.CREATED,
                        SubmissionBodies.body(
                                submissions.receive(tenant.id(), HomeworkId.of(homeworkId), upload), chatUi)));
    }

    @GetMapping("/{submissionId}")
    @Operation(summary = "Get a submission as it is now")
    SubmissionBody submission(Tenant tenant, @PathVariable UUID homeworkId, @PathVariable UUID submissionId) {
        return SubmissionBodies.body(
                submissions.submission(tenant.id(), HomeworkId.of(homeworkId), SubmissionId.of(submissionId)),
                chatUiUrl());
    }

    @GetMapping
    @Operation(summary = "List the homework's submissions, of one student when studentId is given, newest first")
    SubmissionList list(
            Tenant tenant,
            @PathVariable UUID homeworkId,
            @RequestParam(required = false) String studentId,
            @RequestParam(required = false) String limit,
            @RequestParam(required = false) String offset) {
        PageRequest page = PageRequest.parse(offset, limit, null, 100, false);
        Page<Submission> found = submissions.submissions(tenant.id(), HomeworkId.of(homeworkId), studentId, page);
        String chatUi = chatUiUrl();
        return new SubmissionList(
                found.items().stream()
                        .map(s -> SubmissionBodies.body(s, chatUi))
                        .toList(),
                page.offset() + (long) page.limit() < found.total(),
                page.offset() > 0,
                found.total());
    }

    @PatchMapping(path = "/{submissionId}", consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(
            summary = "The teacher's decision: approved or needs_revision, with points and comments if they give any",
            description = "409 for 'submitted', 'reviewed', or the status the submission already has when nothing"
                    + " else changes.")
    SubmissionBody decide(
            Tenant tenant,
            @PathVariable UUID homeworkId,
            @PathVariable UUID submissionId,
            @RequestBody DecisionRequest request) {
        String fix = "Send {\"status\": \"approved\"} or {\"status\": \"needs_revision\"}, with \"criteria\":"
                + " [{\"criterionId\", \"points\", \"comment\"?}] and \"comment\" if you give points.";
        if (request == null || request.status() == null) {
            throw InvalidInput.field("status", "is required", fix);
        }
        SubmissionStatus to = SubmissionStatus.of(request.status())
                .orElseThrow(() -> InvalidInput.field("status", "is not a submission status", fix));
        if (request.teacherId() != null && request.teacherId().length() > 255) {
            throw InvalidInput.field("teacherId", "must be at most 255 characters", fix);
        }
        if (request.comment() != null && request.comment().length() > TeacherDecision.MAX_COMMENT) {
            throw InvalidInput.field("comment", "must be at most 4,000 characters", fix);
        }
        List<GivenPoints> points = givenPoints(request.criteria());
        Submission decided = submissions.decide(
                tenant.id(),
                HomeworkId.of(homeworkId),
                SubmissionId.of(submissionId),
                new TeacherDecision(to, request.teacherId(), points, request.comment()),
                tenant.apiKeyId());
        return SubmissionBodies.body(decided, chatUiUrl());
    }

    private static List<GivenPoints> givenPoints(@Nullable List<GivenPointsRequest> criteria) {
        if (criteria == null) {
            return List.of();
        }
        String fix = "Give \"criteria\" as [{\"criterionId\": \"correctness\", \"points\": 40, \"comment\":"
                + " \"...\"}], a criterion of the homework's rubric each.";
        if (criteria.size() > Rubric.MAX_CRITERIA) {
            throw InvalidInput.field("criteria", "must have at most " + Rubric.MAX_CRITERIA + " items", fix);
        }
        List<GivenPoints> given = new ArrayList<>();
        for (int i = 0; i < criteria.size(); i++) {
            GivenPointsRequest item = criteria.get(i);
            String field = "criteria[" + i + "]";
            if (item == null) {
                throw InvalidInput.field(field, "must be an object", fix);
            }
            if (item.criterionId() == null || item.criterionId().isBlank()) {
                throw InvalidInput.field(field + ".criterionId", "is required", fix);
            }
            if (item.points() == null) {
                throw InvalidInput.field(field + ".points", "is required", fix);
            }
            BigDecimal points = item.points().stripTrailingZeros();
            if (points.scale() > 0
                    || points.compareTo(BigDecimal.valueOf(Rubric.MAX_POINTS)) > 0
                    || points.signum() < 0) {
                throw InvalidInput.field(
                        field + ".points", "must be a whole number from 0 to the criterion's maximum", fix);
            }
            if (item.comment() != null && item.comment().length() > TeacherDecision.MAX_COMMENT) {
                throw InvalidInput.field(field + ".comment", "must be at most 4,000 characters", fix);
            }
            given.add(new GivenPoints(item.criterionId(), points.intValueExact(), item.comment()));
        }
        return given;
    }

    private String chatUiUrl() {
        return SubmissionBodies.chatUiUrl(chatUi);
    }
}
