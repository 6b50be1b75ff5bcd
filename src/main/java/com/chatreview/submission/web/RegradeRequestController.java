package com.chatreview.submission.web;

import com.chatreview.homework.HomeworkId;
import com.chatreview.kernel.InvalidInput;
import com.chatreview.submission.RegradeRequest;
import com.chatreview.submission.Regrades;
import com.chatreview.submission.SubmissionId;
import com.chatreview.submission.json.SubmissionBodies.RegradeRequestBody;
import com.chatreview.tenancy.Tenant;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.util.UUID;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/** A student's regrade requests and the teacher's answers (docs/api.md, Regrade requests). */
@RestController
@RequestMapping("/v1/homeworks/{homeworkId}/submissions/{submissionId}/regrade-requests")
@Tag(name = "Submissions")
@SecurityRequirement(name = "x-tenant-api-secret")
class RegradeRequestController {

    private final Regrades regrades;

    RegradeRequestController(Regrades regrades) {
        this.regrades = regrades;
    }

    record NewRegradeRequest(
            @Schema(requiredMode = Schema.RequiredMode.REQUIRED, description = "The submission's student")
            String studentId,

            @Schema(description = "The criterion to look at again; leave it out for the whole grade")
            String criterionId,

            @Schema(requiredMode = Schema.RequiredMode.REQUIRED, description = "What the student thinks was missed")
            String message) {}

    record RegradeAnswer(
            @Schema(requiredMode = Schema.RequiredMode.REQUIRED)
            String answer,

            @Schema(description = "The teacher answering, kept as answeredBy")
            String teacherId) {}

    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    @ResponseStatus(HttpStatus.CREATED)
    @Operation(
            summary = "The student asks the teacher to look again at a criterion, or the whole grade",
            description = "At most 3 open per submission (409); 409 before the submission has a grade.")
    RegradeRequestBody request(
            Tenant tenant,
            @PathVariable UUID homeworkId,
            @PathVariable UUID submissionId,
            @RequestBody NewRegradeRequest request) {
        String fix = "Send {\"studentId\", \"criterionId\"?, \"message\"}: the message 1 to 2,000 characters.";
        if (request == null
                || request.studentId() == null
                || request.studentId().isBlank()) {
            throw InvalidInput.field("studentId", "is required", fix);
        }
        if (request.message() == null || request.message().isBlank()) {
            throw InvalidInput.field("message", "is required", fix);
        }
        if (request.message().length() > RegradeRequest.MAX_MESSAGE) {
            throw InvalidInput.field("message", "must be at most 2,000 characters", fix);
        }
        String criterion =
                request.criterionId() == null || request.criterionId().isBlank() ? null : request.criterionId();
        return RegradeRequestBody.of(regrades.request(
                tenant.id(),
                HomeworkId.of(homeworkId),
                SubmissionId.of(submissionId),
                request.studentId(),
                criterion,
                request.message()));
    }

    @PatchMapping(path = "/{requestId}", consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(
            summary = "The teacher answers a regrade request; the answer goes into the student's review chat",
            description =
                    "Once: 409 for a request answered already. Points change with a decision on the" + " submission.")
    RegradeRequestBody answer(
            Tenant tenant,
            @PathVariable UUID homeworkId,
            @PathVariable UUID submissionId,
            @PathVariable UUID requestId,
            @RequestBody RegradeAnswer answer) {
        String fix = "Send {\"answer\", \"teacherId\"?}: the answer 1 to 4,000 characters.";
        if (answer == null || answer.answer() == null || answer.answer().isBlank()) {
            throw InvalidInput.field("answer", "is required", fix);
        }
        if (answer.answer().length() > RegradeRequest.MAX_ANSWER) {
            throw InvalidInput.field("answer", "must be at most 4,000 characters", fix);
        }
        if (answer.teacherId() != null && answer.teacherId().length() > 255) {
            throw InvalidInput.field("teacherId", "must be at most 255 characters", fix);
        }
        return RegradeRequestBody.of(regrades.answer(
                tenant.id(),
                HomeworkId.of(homeworkId),
                SubmissionId.of(submissionId),
                requestId,
                answer.answer(),
                answer.teacherId()));
    }
}
