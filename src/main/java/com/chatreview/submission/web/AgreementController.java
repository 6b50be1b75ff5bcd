package com.chatreview.submission.web;

import com.chatreview.homework.HomeworkId;
import com.chatreview.submission.Agreement;
import com.chatreview.submission.Agreements;
import com.chatreview.tenancy.Tenant;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/** How often the AI grades a homework unlike its teacher (docs/api.md, Agreement). */
@RestController
@Tag(name = "Submissions")
@SecurityRequirement(name = "x-tenant-api-secret")
class AgreementController {

    private final Agreements agreements;

    AgreementController(Agreements agreements) {
        this.agreements = agreements;
    }

    record AgreementBody(
            String homeworkId,

            @Schema(description = "Submissions the teacher decided on after the review graded them")
            int decidedSubmissions,

            @Schema(description = "How many of them kept the review's letter")
            int lettersKept,

            @Schema(description = "lettersKept / decidedSubmissions; null when none was decided", nullable = true)
            @JsonInclude(JsonInclude.Include.ALWAYS)
            @Nullable
            Double lettersKeptShare,

            List<CriterionAgreementBody> criteria) {}

    record CriterionAgreementBody(
            String criterionId,
            String title,
            int maxPoints,
            int decidedSubmissions,

            @Schema(description = "How many of them the teacher gave other points")
            int changedByTeacher,

            @Schema(
                    description = "Mean of |teacher's - review's| points (0 where kept); null when none was decided",
                    nullable = true)
            @JsonInclude(JsonInclude.Include.ALWAYS)
            @Nullable
            Double meanAbsoluteDifference,

            @Schema(description = "The five submissions with the largest differences, largest first")
            List<AgreementDifferenceBody> largestDifferences) {}

    record AgreementDifferenceBody(
            String submissionId,
            String studentId,
            int aiPoints,
            int teacherPoints,

            @Schema(description = "teacherPoints - aiPoints")
            int difference,

            @Schema(description = "The submission, to read it")
            String href) {}

    @GetMapping("/v1/homeworks/{homeworkId}/agreement")
    @Operation(summary = "Where the AI's grades of the homework differ from the teacher's, per criterion")
    AgreementBody agreement(Tenant tenant, @PathVariable UUID homeworkId) {
        Agreement agreement = agreements.of(tenant.id(), HomeworkId.of(homeworkId));
        String submissions = "/v1/homeworks/" + homeworkId + "/submissions/";
        return new AgreementBody(
                agreement.homeworkId().toString(),
                agreement.decidedSubmissions(),
                agreement.lettersKept(),
                agreement.lettersKeptShare(),
                agreement.criteria().stream()
                        .map(criterion -> new CriterionAgreementBody(
                                criterion.criterionId(),
                                criterion.title(),
                                criterion.maxPoints(),
                                criterion.decidedSubmissions(),
                                criterion.changedByTeacher(),
                                criterion.meanAbsoluteDifference(),
                                criterion.largestDifferences().stream()
                                        .map(difference -> new AgreementDifferenceBody(
                                                difference.submissionId().toString(),
                                                difference.studentId(),
                                                difference.aiPoints(),
                                                difference.teacherPoints(),
                                                difference.difference(),
                                                submissions + difference.submissionId()))
                                        .toList()))
                        .toList());
    }
}
