package com.chatreview.submission.web;

import com.chatreview.chatui.ChatUi;
import com.chatreview.grading.Verdict.CriterionScore;
import com.chatreview.grading.Verdict.Finding;
import com.chatreview.grading.Verdict.Flag;
import com.chatreview.homework.HomeworkId;
import com.chatreview.idempotency.IdempotentRequests;
import com.chatreview.kernel.InvalidInput;
import com.chatreview.kernel.Page;
import com.chatreview.kernel.PageRequest;
import com.chatreview.submission.IncomingFile;
import com.chatreview.submission.PreparedUpload;
import com.chatreview.submission.ReviewProgress;
import com.chatreview.submission.Submission;
import com.chatreview.submission.SubmissionId;
import com.chatreview.submission.SubmissionManagement;
import com.chatreview.submission.SubmissionStatus;
import com.chatreview.submission.SubmittedFile;
import com.chatreview.tenancy.Tenant;
import com.chatreview.testrun.TestRun;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
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

    record SubmissionFileBody(String id, String fileName, String contentType, long size, String sha256) {
        static SubmissionFileBody of(SubmittedFile file) {
            return new SubmissionFileBody(
                    file.id().toString(), file.fileName(), file.contentType(), file.size(), file.sha256());
        }
    }

    /** A submission: the interface's fields, then studentId, updatedAt and the stored files. */
    record SubmissionBody(
            String id,
            String homeworkId,
            String chatId,

            @Schema(allowableValues = {"submitted", "reviewed", "approved", "needs_revision"})
            String status,

            String chatIframeUrl,
            Instant createdAt,
            String analysis,

            @Schema(allowableValues = {"", "A", "B", "C", "D", "E", "F"})
            String grade,

            @Schema(description = "Points per criterion of the homework's rubric; empty before the review")
            List<CriterionScoreBody> criteria,

            @Schema(description = "What the review found, in the student's reading order; empty before the review")
            List<FindingBody> findings,

            @Schema(description = "What the teacher should know beyond the points; empty before the review")
            List<FlagBody> flags,

            @Schema(
                    description = "What the homework's tests came to against the files: null when the homework has"
                            + " none, or before they ran",
                    nullable = true)
            @JsonInclude(JsonInclude.Include.ALWAYS)
            @Nullable
            TestRun tests,

            String studentId,
            Instant updatedAt,
            List<SubmissionFileBody> files,
            ReviewBody review,
            List<DecisionBody> decisions,
            MetadataBody metadata) {}

    record CriterionScoreBody(
            String criterionId, String title, int points, int maxPoints, String explanation, List<String> findingIds) {

        static CriterionScoreBody of(CriterionScore score) {
            return new CriterionScoreBody(
                    score.criterionId(),
                    score.title(),
                    score.points(),
                    score.maxPoints(),
                    score.explanation(),
                    score.findingIds());
        }
    }

    record FindingBody(
            String id,
            String criterionId,

            @Schema(allowableValues = {"info", "minor", "major", "critical"})
            String severity,

            @Schema(nullable = true, description = "The student's file; null for the whole submission") @Nullable
            String file,

            @Schema(nullable = true) @Nullable Integer line,
            @Schema(nullable = true) @Nullable Integer endLine,

            @Schema(nullable = true, description = "The student's text at those lines, verbatim") @Nullable
            String quote,

            String message) {

        static FindingBody of(Finding finding) {
            return new FindingBody(
                    finding.id(),
                    finding.criterionId(),
                    finding.severity().value(),
                    finding.file(),
                    finding.line(),
                    finding.endLine(),
                    finding.quote(),
                    finding.message());
        }
    }

    record FlagBody(
            @Schema(
                    allowableValues = {
                        "addressed_to_grader",
                        "no_readable_work",
                        "unreadable_file",
                        "criterion_not_assessed",
                        "tests_not_run",
                        "correctness_unverified"
                    })
            String kind,

            @Schema(nullable = true) @Nullable String file,
            @Schema(nullable = true) @Nullable Integer line,
            String message) {

        static FlagBody of(Flag flag) {
            return new FlagBody(flag.kind(), flag.file(), flag.line(), flag.message());
        }
    }

    /** Where the AI review stands; {@code grade} above is the AI's, whatever the teacher decided. */
    record ReviewBody(
            @Schema(allowableValues = {"pending", "waiting_for_budget", "done", "failed"})
            String state,

            @Schema(description = "Failed attempts of the current round")
            int failedAttempts,

            @Schema(description = "Why the latest attempt failed", nullable = true) @Nullable
            String error,

            @Schema(nullable = true) @Nullable Instant reviewedAt) {}

    /** The audit trail of the teacher's decisions, oldest first. */
    record DecisionBody(String fromStatus, String toStatus, String decidedBy, Instant decidedAt) {}

    record MetadataBody(
            @Schema(description = "The AI review failed for good; analysis says why")
            boolean reviewFailed) {}

    record SubmissionList(List<SubmissionBody> data, boolean nextPage, boolean prevPage, long total) {}

    record DecisionRequest(
            @Schema(allowableValues = {"approved", "needs_revision"})
            String status,

            @Schema(description = "The teacher deciding, kept in the audit trail")
            String teacherId) {}

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
                        body(submissions.receive(tenant.id(), HomeworkId.of(homeworkId), upload), chatUi)));
    }

    @GetMapping("/{submissionId}")
    @Operation(summary = "Get a submission as it is now")
    SubmissionBody submission(Tenant tenant, @PathVariable UUID homeworkId, @PathVariable UUID submissionId) {
        return body(
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
                found.items().stream().map(s -> body(s, chatUi)).toList(),
                page.offset() + (long) page.limit() < found.total(),
                page.offset() > 0,
                found.total());
    }

    @PatchMapping(path = "/{submissionId}", consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(
            summary = "The teacher's decision: approved or needs_revision",
            description = "409 for 'submitted', 'reviewed', or the status the submission already has.")
    SubmissionBody decide(
            Tenant tenant,
            @PathVariable UUID homeworkId,
            @PathVariable UUID submissionId,
            @RequestBody DecisionRequest request) {
        String fix = "Send {\"status\": \"approved\"} or {\"status\": \"needs_revision\"}.";
        if (request == null || request.status() == null) {
            throw InvalidInput.field("status", "is required", fix);
        }
        SubmissionStatus to = SubmissionStatus.of(request.status())
                .orElseThrow(() -> InvalidInput.field("status", "is not a submission status", fix));
        if (request.teacherId() != null && request.teacherId().length() > 255) {
            throw InvalidInput.field("teacherId", "must be at most 255 characters", fix);
        }
        Submission decided = submissions.decide(
                tenant.id(),
                HomeworkId.of(homeworkId),
                SubmissionId.of(submissionId),
                to,
                request.teacherId(),
                tenant.apiKeyId());
        return body(decided, chatUiUrl());
    }

    private String chatUiUrl() {
        return chatUiUrl(chatUi);
    }

    /** The chat page's URL for the links the service writes ({@link ChatUi#pageUrl}). */
    static String chatUiUrl(ChatUi chatUi) {
        return chatUi.pageUrl();
    }

    static SubmissionBody body(Submission submission, String chatUiUrl) {
        return new SubmissionBody(
                submission.id().toString(),
                submission.homeworkId().toString(),
                submission.chatId().toString(),
                submission.status().value(),
                chatUiUrl + "/?chat_id=" + submission.chatId(),
                submission.createdAt(),
                submission.analysis(),
                submission.grade(),
                submission.outcome().criteria().stream()
                        .map(CriterionScoreBody::of)
                        .toList(),
                submission.outcome().findings().stream().map(FindingBody::of).toList(),
                submission.outcome().flags().stream().map(FlagBody::of).toList(),
                submission.tests(),
                submission.studentId(),
                submission.updatedAt(),
                submission.files().stream().map(SubmissionFileBody::of).toList(),
                new ReviewBody(
                        submission.review().state().value(),
                        submission.review().failedAttempts(),
                        submission.review().error(),
                        submission.review().reviewedAt()),
                submission.decisions().stream()
                        .map(decision -> new DecisionBody(
                                decision.from().value(),
                                decision.to().value(),
                                decision.decidedBy(),
                                decision.decidedAt()))
                        .toList(),
                new MetadataBody(submission.review().state() == ReviewProgress.State.FAILED));
    }
}
