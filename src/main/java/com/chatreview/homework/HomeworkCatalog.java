package com.chatreview.homework;

import com.chatreview.database.Sql;
import com.chatreview.grading.Rubric;
import com.chatreview.homework.HomeworkErrors.HomeworkNotFound;
import com.chatreview.kernel.FieldProblem;
import com.chatreview.kernel.FileNames;
import com.chatreview.kernel.Ids;
import com.chatreview.kernel.InvalidInput;
import com.chatreview.kernel.Page;
import com.chatreview.kernel.PageRequest;
import com.chatreview.storage.TenantStorage;
import com.chatreview.tenancy.TenantId;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** Courses and assignments of a tenant: what teachers publish and students submit against. */
@Service
public class HomeworkCatalog {

    static final int MAX_TEXT = 255;
    static final int MAX_FILES = 50;
    /**
     * The most content a homework's files hold in all (docs/api.md, Homework): every homework of a list answer carries its
     * files, so that no list grows without bound.
     */
    static final int MAX_CONTENT_BYTES = 256 * 1024;

    private final Courses courses;
    private final Homeworks homeworks;
    private final TenantStorage storage;

    private final Clock clock;

    HomeworkCatalog(Courses courses, Homeworks homeworks, TenantStorage storage, Clock clock) {
        this.clock = clock;
        this.courses = courses;
        this.homeworks = homeworks;
        this.storage = storage;
    }

    @Transactional
    public Course createCourse(TenantId tenantId, String teacherId, String name) {
        List<FieldProblem> problems = new ArrayList<>();
        requireText("teacherId", teacherId, problems);
        requireText("name", name, problems);
        if (!problems.isEmpty()) {
            throw InvalidInput.fields(problems, "Send {\"teacherId\": \"...\", \"name\": \"...\"}.");
        }
        Instant now = now();
        Course course = new Course(UUID.randomUUID(), tenantId, teacherId.strip(), name.strip(), now, now);
        courses.insert(course);
        return course;
    }

    /** The tenant's courses, of one teacher when {@code teacherId} is given, newest first. */
    public List<Course> courses(TenantId tenantId, @Nullable String teacherId) {
        return courses.ofTeacher(tenantId.value(), teacherId == null || teacherId.isBlank() ? null : teacherId);
    }

    /**
     * Publishes the assignment, or refuses it with every problem of the request at once. Without a rubric of the
     * teacher's, none is stored and the homework is graded against {@link Rubric#DEFAULT}.
     */
    @Transactional
    public Homework publish(TenantId tenantId, NewHomework request) {
        List<FieldProblem> problems = new ArrayList<>();
        requireText("teacherId", request.teacherId(), problems);
        requireText("assignmentId", request.assignmentId(), problems);
        if (request.subject() != null && request.subject().length() > MAX_TEXT) {
            problems.add(new FieldProblem("subject", "must be at most " + MAX_TEXT + " characters"));
        }
        Optional<Course> course = course(tenantId.value(), request.courseId(), problems);
        HomeworkId homeworkId = HomeworkId.random();
        Instant now = now();
        List<HomeworkFile> files = files(homeworkId, request.files(), now, problems);
        long content = files.stream()
                .mapToLong(file -> file.content().getBytes(java.nio.charset.StandardCharsets.UTF_8).length)
                .sum();
        if (content > MAX_CONTENT_BYTES) {
            problems.add(new FieldProblem(
                    "files",
                    "hold " + content + " bytes of content; at most " + MAX_CONTENT_BYTES + " (256 KiB) in all"));
        }
        Optional<Rubric> rubric = RubricInput.read(request.rubric(), problems);
        testsOfOneLanguage(request.files(), problems);
        int testTimeout = testTimeoutSeconds(request.testTimeoutSeconds(), problems);
        if (!problems.isEmpty()) {
            throw InvalidInput.fields(
                    problems,
                    "Send teacherId, courseId (a course of yours, from POST /v1/courses), assignmentId, an optional"
                            + " subject, files of fileType 'task', 'solution', 'restriction' or 'test' (tests of one"
                            + " language: .py for pytest, .java for JUnit 5, .js or .mjs for node --test), an optional"
                            + " testTimeoutSeconds (1 to " + Homework.MAX_TEST_TIMEOUT_SECONDS + ") and an optional"
                            + " rubric: {\"criteria\": [{\"id\", \"title\", \"description\", \"maxPoints\"}]}"
                            + " with 1 to " + Rubric.MAX_CRITERIA + " criteria.");
        }
        Homework homework = new Homework(
                homeworkId,
                tenantId,
                request.teacherId().strip(),
                request.assignmentId().strip(),
                request.subject() == null || request.subject().isBlank()
                        ? null
                        : request.subject().strip(),
                course.orElseThrow().id(),
                now,
                now,
                files,
                course.get(),
                rubric.orElse(Rubric.DEFAULT),
                testTimeout);
        // the files' text is stored with the homework: it counts against the tenant's storage as uploads do
        storage.reserve(tenantId, content);
        homeworks.insert(homework, rubric.isPresent());
        return homework;
    }

    public Optional<Homework> find(TenantId tenantId, HomeworkId homeworkId) {
        return homeworks.find(tenantId.value(), homeworkId);
    }

    public Homework homework(TenantId tenantId, HomeworkId homeworkId) {
        return find(tenantId, homeworkId).orElseThrow(() -> new HomeworkNotFound(homeworkId));
    }

    /**
     * A page of the tenant's assignments matching the query, newest first. A course id that is not a UUID
     * names no course, so it matches nothing.
     */
    @Transactional(readOnly = true)
    public Page<Homework> list(TenantId tenantId, HomeworkQuery query, PageRequest page) {
        @Nullable List<UUID> courseIds = null;
        if (query.courseIds() != null && !query.courseIds().isEmpty()) {
            courseIds = query.courseIds().stream()
                    .map(String::strip)
                    .filter(id -> !id.isEmpty())
                    .map(Ids::uuid)
                    .flatMap(Optional::stream)
                    .distinct()
                    .toList();
        }
        Homeworks.Found found = homeworks.find(tenantId.value(), query, courseIds, page);
        return new Page<>(found.page(), found.total());
    }

    private Optional<Course> course(UUID tenantId, String courseId, List<FieldProblem> problems) {
        if (courseId == null || courseId.isBlank()) {
            problems.add(new FieldProblem("courseId", "is required"));
            return Optional.empty();
        }
        Optional<Course> course = Ids.uuid(courseId.strip()).flatMap(id -> courses.find(tenantId, id));
        if (course.isEmpty()) {
            problems.add(new FieldProblem("courseId", "is not a course of this tenant"));
        }
        return course;
    }

    private static List<HomeworkFile> files(
            HomeworkId homeworkId, List<NewHomework.NewFile> requested, Instant now, List<FieldProblem> problems) {
        if (requested == null) {
            return List.of();
        }
        if (requested.size() > MAX_FILES) {
            problems.add(new FieldProblem("files", "must hold at most " + MAX_FILES + " files"));
            return List.of();
        }
        List<HomeworkFile> files = new ArrayList<>();
        for (int i = 0; i < requested.size(); i++) {
            NewHomework.NewFile file = requested.get(i);
            String field = "files[" + i + "]";
            if (file == null) {
                problems.add(new FieldProblem(field, "must be an object"));
                continue;
            }
            Optional<HomeworkFile.FileType> type = HomeworkFile.FileType.of(file.fileType());
            if (type.isEmpty()) {
                problems.add(
                        new FieldProblem(field + ".fileType", "must be 'task', 'solution', 'restriction' or 'test'"));
            }
            String name = file.fileName() == null ? "" : FileNames.clean(file.fileName());
            if (name.isEmpty()) {
                problems.add(new FieldProblem(field + ".fileName", "is required"));
            }
            if (file.content() == null) {
                problems.add(new FieldProblem(field + ".content", "is required (it may be empty)"));
            }
            if (type.isPresent() && !name.isEmpty() && file.content() != null) {
                UUID id = UUID.randomUUID();
                String path = "homeworks/" + homeworkId + "/" + type.get().value() + "/" + name;
                files.add(new HomeworkFile(id, homeworkId, type.get(), name, path, file.content(), now, now));
            }
        }
        return files;
    }

    /**
     * The tests of a homework are of one language, told by their extension, and named so that a run can be handed
     * them as they are (docs/decisions.md, Homework tests): any other is refused, naming the file.
     */
    private static void testsOfOneLanguage(@Nullable List<NewHomework.NewFile> requested, List<FieldProblem> problems) {
        if (requested == null || requested.size() > MAX_FILES) {
            return;
        }
        TestLanguage first = null;
        String firstName = null;
        Set<String> names = new HashSet<>();
        for (int i = 0; i < requested.size(); i++) {
            NewHomework.NewFile file = requested.get(i);
            if (file == null
                    || !HomeworkFile.FileType.TEST.value().equals(file.fileType())
                    || file.fileName() == null) {
                continue;
            }
            String field = "files[" + i + "].fileName";
            String name = FileNames.clean(file.fileName());
            Optional<TestLanguage> language = TestLanguage.ofFile(name);
            if (language.isEmpty()) {
                problems.add(new FieldProblem(
                        field,
                        "'" + name + "' is not a test file the service can run: .py (pytest), .java (JUnit 5) or .js"
                                + " / .mjs (node --test)"));
            } else if (!FileNames.isPlain(name)) {
                problems.add(new FieldProblem(
                        field, "'" + name + "': a test file's name may hold letters, digits, '_', '.' and '-' only"));
            } else if (!names.add(name)) {
                problems.add(new FieldProblem(field, "'" + name + "' is the name of another test file"));
            } else if (first == null) {
                first = language.get();
                firstName = name;
            } else if (language.get() != first) {
                problems.add(new FieldProblem(
                        field,
                        "'" + name + "' is " + language.get().displayName() + ", while '" + firstName + "' is "
                                + first.displayName() + ": a homework's tests are of one language"));
            }
        }
    }

    private static int testTimeoutSeconds(@Nullable Integer requested, List<FieldProblem> problems) {
        if (requested == null) {
            return Homework.DEFAULT_TEST_TIMEOUT_SECONDS;
        }
        if (requested < 1 || requested > Homework.MAX_TEST_TIMEOUT_SECONDS) {
            problems.add(new FieldProblem(
                    "testTimeoutSeconds", "must be from 1 to " + Homework.MAX_TEST_TIMEOUT_SECONDS + " seconds"));
            return Homework.DEFAULT_TEST_TIMEOUT_SECONDS;
        }
        return requested;
    }

    private static void requireText(String field, String value, List<FieldProblem> problems) {
        if (value == null || value.isBlank()) {
            problems.add(new FieldProblem(field, "is required and must not be blank"));
        } else if (value.length() > MAX_TEXT) {
            problems.add(new FieldProblem(field, "must be at most " + MAX_TEXT + " characters"));
        }
    }

    private Instant now() {
        return Sql.now(clock);
    }
}
