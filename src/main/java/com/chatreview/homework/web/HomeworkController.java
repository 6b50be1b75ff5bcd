package com.chatreview.homework.web;

import com.chatreview.homework.Course;
import com.chatreview.homework.Homework;
import com.chatreview.homework.HomeworkCatalog;
import com.chatreview.homework.HomeworkFile;
import com.chatreview.homework.HomeworkQuery;
import com.chatreview.homework.NewHomework;
import com.chatreview.kernel.InvalidInput;
import com.chatreview.kernel.Page;
import com.chatreview.kernel.PageRequest;
import com.chatreview.tenancy.Tenant;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
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

/** Endpoint 7 of the interface and the teacher's side of decisions §7 (camelCase, as the interface has it). */
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

            @Schema(allowableValues = {"task", "solution", "restriction"})
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

    /** An assignment; {@code subject} is left out when the assignment has none ("present if available"). */
    record HomeworkBody(
            String id,
            String tenantId,
            String teacherId,
            String assignmentId,
            @JsonInclude(JsonInclude.Include.NON_NULL) String subject,
            String courseId,
            Instant createdAt,
            Instant updatedAt,
            List<FileBody> files,
            CourseBody course) {
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
                    CourseBody.of(homework.course()));
        }
    }

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
    @Operation(summary = "Publish a homework assignment with its task, solution and restriction files")
    HomeworkBody publish(Tenant tenant, @RequestBody NewHomework request) {
        if (request == null) {
            throw InvalidInput.field("teacherId", "is required", "Send the assignment as a JSON object.");
        }
        return HomeworkBody.of(catalog.publish(tenant.id(), request));
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
        return HomeworkBody.of(catalog.homework(tenant.id(), homeworkId));
    }
}
