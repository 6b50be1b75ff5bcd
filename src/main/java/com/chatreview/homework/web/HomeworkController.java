package com.chatreview.homework.web;

import com.chatreview.grading.Rubric;
import com.chatreview.homework.Course;
import com.chatreview.homework.Homework;
import com.chatreview.homework.HomeworkCatalog;
import com.chatreview.homework.HomeworkFile;
import com.chatreview.homework.HomeworkId;
import com.chatreview.homework.HomeworkQuery;
import com.chatreview.homework.NewHomework;
import com.chatreview.kernel.InvalidInput;
import com.chatreview.kernel.Page;
import com.chatreview.kernel.PageRequest;
import com.chatreview.tenancy.Tenant;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;

/** Endpoint 7 of the interface and the teacher's side of docs/api.md, Homework (camelCase, as the interface has it). */
@RestController
@RequestMapping("/v1")
@Tag(name = "Homework")
@SecurityRequirement(name = "x-tenant-api-secret")
class HomeworkController {

    private final HomeworkCatalog catalog;

    HomeworkController(HomeworkCatalog catalog) {
        this.catalog = catalog;
    }

    record CreateCourseRequest(String teacherId, String name) {}

    record CourseBody(String id, String tenantId, String teacherId, String name, Instant createdAt, Instant updatedAt) {
        static CourseBody of(Course course) {
            return new CourseBody(
                    course.id().toString(),
                    course.tenantId().toString(),
                    course.teacherId(),
                    course.name(),
                    course.createdAt(),
                    course.updatedAt());
        }
    }

    record CourseList(List<CourseBody> data) {}

    record FileBody(
            String id,
            String homeworkId,

            @Schema(
                    allowableValues = {"task", "solution", "restriction", "test"},
                    description = "test: the teacher's tests, run against every submission in a sandbox and never"
                            + " shown to students")
            String fileType,

            String fileName,
            String filePath,
            String content,
            Instant createdAt,
            Instant updatedAt) {
        static FileBody of(HomeworkFile file) {
            return new FileBody(
                    file.id().toString(),
                    file.homeworkId().toString(),
                    file.fileType().value(),
                    file.fileName(),
                    file.filePath(),
                    file.content(),
                    file.createdAt(),
                    file.updatedAt());
        }
    }

    /**
     * A rubric, as a teacher sends it and as an assignment shows it: the teacher's, or the service's default when the
     * teacher gave none (docs/api.md, The review).
     */
    @Schema(description = "What the submissions are graded against; the service's default when the teacher gave none")
    record RubricBody(
            @ArraySchema(minItems = 1, maxItems = Rubric.MAX_CRITERIA)
            @Schema(requiredMode = Schema.RequiredMode.REQUIRED)
            List<CriterionBody> criteria) {
        static RubricBody of(Rubric rubric) {
            return new RubricBody(
                    rubric.criteria().stream().map(CriterionBody::of).toList());
        }
    }

    /** A criterion; {@code description} is written as {@code null} when the teacher gave none. */
    record CriterionBody(
            @Schema(
                    requiredMode = Schema.RequiredMode.REQUIRED,
                    pattern = "^[a-z0-9_-]{1,40}$",
                    example = "correctness")
            String id,

            @Schema(requiredMode = Schema.RequiredMode.REQUIRED, maxLength = Rubric.MAX_TITLE)
            String title,

            @Schema(
                    description = "What earns the points; optional when sent, null when not given",
                    maxLength = Rubric.MAX_DESCRIPTION,
                    nullable = true)
            @Nullable
            String description,

            @Schema(requiredMode = Schema.RequiredMode.REQUIRED, minimum = "1", maximum = "" + Rubric.MAX_POINTS)
            int maxPoints,

            @Schema(
                    description = "The homework's tests grade it: maxPoints × passed / total, whatever the reviewer"
                            + " says. Optional when sent; shown only when true")
            @JsonInclude(JsonInclude.Include.NON_DEFAULT)
            boolean tests) {
        static CriterionBody of(Rubric.Criterion criterion) {
            return new CriterionBody(
                    criterion.id(),
                    criterion.title(),
                    criterion.description(),
                    criterion.maxPoints(),
                    criterion.tests());
        }
    }

    /**
     * What a teacher sends to publish an assignment. The rubric is bound as a JSON tree and checked with the rest of
     * the request by {@link HomeworkCatalog#publish}, so that a wrong type inside it names its field.
     */
    record PublishRequest(
            String teacherId,
            String courseId,
            String assignmentId,
            String subject,
            List<NewHomework.NewFile> files,

            @Schema(implementation = RubricBody.class, description = "Optional; without it the default rubric applies")
            JsonNode rubric,

            @Schema(
                    description = "How long a run of the tests against a submission may last, compiling included",
                    minimum = "1",
                    maximum = "" + Homework.MAX_TEST_TIMEOUT_SECONDS,
                    defaultValue = "" + Homework.DEFAULT_TEST_TIMEOUT_SECONDS)
            @Nullable
            Integer testTimeoutSeconds) {
        NewHomework toNewHomework() {
            return new NewHomework(teacherId, courseId, assignmentId, subject, files, rubric, testTimeoutSeconds);
        }
    }

    /** An assignment; {@code subject} is left out when the assignment has none ("present if available"). */
    record HomeworkBody(
            String id,
            String tenantId,
            String teacherId,
            String assignmentId,

            @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable
            String subject,

            String courseId,
            Instant createdAt,
            Instant updatedAt,
            List<FileBody> files,
            CourseBody course,
            RubricBody rubric,
            int testTimeoutSeconds,

            @Schema(
                    description = "What about the homework's setup makes its grades weaker than the teacher may"
                            + " think (a reference program without tests...); empty when nothing")
            List<WarningBody> warnings) {
        static HomeworkBody of(Homework homework) {
            return new HomeworkBody(
                    homework.id().toString(),
                    homework.tenantId().toString(),
                    homework.teacherId(),
                    homework.assignmentId(),
                    homework.subject(),
                    homework.courseId().toString(),
                    homework.createdAt(),
                    homework.updatedAt(),
                    homework.files().stream().map(FileBody::of).toList(),
                    CourseBody.of(homework.course()),
                    RubricBody.of(homework.rubric()),
                    homework.testTimeoutSeconds(),
                    homework.warnings().stream()
                            .map(warning -> new WarningBody(warning.code(), warning.message()))
                            .toList());
        }
    }

    record WarningBody(
            @Schema(allowableValues = {"solution_without_tests", "criterion_without_tests", "tests_grade_no_criterion"})
            String code,

            String message) {}

    record HomeworkList(List<HomeworkBody> data, boolean nextPage, boolean prevPage, long total) {}

    @PostMapping(path = "/courses", consumes = MediaType.APPLICATION_JSON_VALUE)
    @ResponseStatus(HttpStatus.CREATED)
    @Operation(summary = "Create a course")
    CourseBody createCourse(Tenant tenant, @RequestBody CreateCourseRequest request) {
        if (request == null) {
            throw InvalidInput.field("teacherId", "is required", "Send {\"teacherId\": \"...\", \"name\": \"...\"}.");
        }
        return CourseBody.of(catalog.createCourse(tenant.id(), request.teacherId(), request.name()));
    }

    @GetMapping("/courses")
    @Operation(summary = "List the courses, of one teacher when teacherId is given")
    CourseList courses(Tenant tenant, @RequestParam(required = false) String teacherId) {
        return new CourseList(catalog.courses(tenant.id(), teacherId).stream()
                .map(CourseBody::of)
                .toList());
    }

    @PostMapping(path = "/homeworks", consumes = MediaType.APPLICATION_JSON_VALUE)
    @ResponseStatus(HttpStatus.CREATED)
    @Operation(
            summary = "Publish a homework assignment with its task, solution and restriction files",
            description = "An optional rubric (1 to 20 criteria, each an id of [a-z0-9_-]{1,40} unique in the rubric,"
                    + " a title, an optional description and maxPoints from 1 to 100) is what its submissions are"
                    + " graded against; without one, the service's default rubric applies.")
    HomeworkBody publish(Tenant tenant, @RequestBody PublishRequest request) {
        if (request == null) {
            throw InvalidInput.field("teacherId", "is required", "Send the assignment as a JSON object.");
        }
        return HomeworkBody.of(catalog.publish(tenant.id(), request.toNewHomework()));
    }

    @GetMapping("/homeworks")
    @Operation(
            summary = "List homework assignments",
            description = "Newest first (createdAt, then id). search matches, case-insensitively, a substring of"
                    + " assignmentId, subject, the course's name or a file's fileName.")
    HomeworkList list(
            Tenant tenant,
            @RequestParam(required = false) String limit,
            @RequestParam(required = false) String offset,
            @RequestParam(required = false) String teacherId,
            @Parameter(description = "Repeat it or separate ids with commas") @RequestParam(required = false)
                    List<String> courseId,
            @RequestParam(required = false) String search) {
        PageRequest page = PageRequest.parse(offset, limit, null, 10, false);
        Page<Homework> found = catalog.list(tenant.id(), new HomeworkQuery(teacherId, courseId, search), page);
        return new HomeworkList(
                found.items().stream().map(HomeworkBody::of).toList(),
                page.offset() + (long) page.limit() < found.total(),
                page.offset() > 0,
                found.total());
    }

    @GetMapping("/homeworks/{homeworkId}")
    @Operation(summary = "Get a homework assignment")
    HomeworkBody homework(Tenant tenant, @PathVariable UUID homeworkId) {
        return HomeworkBody.of(catalog.homework(tenant.id(), HomeworkId.of(homeworkId)));
    }
}
