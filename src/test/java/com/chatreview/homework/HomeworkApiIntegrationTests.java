package com.chatreview.homework;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.database.Sql;
import com.chatreview.support.Api;
import com.chatreview.support.Api.Reply;
import com.chatreview.support.IntegrationTest;
import com.chatreview.support.TestService;
import com.chatreview.support.TestTenant;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;

/** Courses and assignments (endpoint 7 and docs/api.md, Homework, teacher side) over HTTP, as a tenant's backend sees them. */
@IntegrationTest
class HomeworkApiIntegrationTests {

    static final Pattern TIMESTAMP = Pattern.compile("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z");
    static final Pattern UUID_TEXT = Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
    static final List<String> COURSE_FIELDS = List.of("id", "tenantId", "teacherId", "name", "createdAt", "updatedAt");
    static final List<String> FILE_FIELDS =
            List.of("id", "homeworkId", "fileType", "fileName", "filePath", "content", "createdAt", "updatedAt");

    TestService service;

    @Autowired
    HomeworkCatalog catalog;

    @Autowired
    JdbcClient jdbc;

    TestTenant tenant;
    Api api;

    @BeforeEach
    void newTenant(TestService service) {
        this.service = service;
        tenant = service.newTenant("homework-tests");
        api = tenant.homework();
    }

    @Test
    void createsACourseWithEveryField() {
        Reply reply = api.post("/v1/courses", "{\"teacherId\": \"teacher-1\", \"name\": \"Algebra I\"}");

        assertThat(reply.status()).isEqualTo(201);
        assertThat(reply.fieldNames()).containsExactlyElementsOf(COURSE_FIELDS);
        JsonNode course = reply.json();
        assertThat(course.get("id").isString()).isTrue();
        assertThat(course.get("id").asString()).matches(UUID_TEXT);
        assertThat(course.get("tenantId").asString()).isEqualTo(tenant.id());
        assertThat(course.get("teacherId").asString()).isEqualTo("teacher-1");
        assertThat(course.get("name").asString()).isEqualTo("Algebra I");
        assertThat(course.get("createdAt").asString()).matches(TIMESTAMP);
        assertThat(course.get("updatedAt").asString())
                .isEqualTo(course.get("createdAt").asString());
        assertThat(jdbc.sql("SELECT name FROM courses WHERE id = :id")
                        .param("id", UUID.fromString(course.get("id").asString()))
                        .query(String.class)
                        .single())
                .isEqualTo("Algebra I");
    }

    @Test
    void aCourseNeedsATeacherAndANameOfTheRightType() {
        assertValidationError(api.post("/v1/courses", "{\"name\": \"Algebra\"}"), "teacherId");
        assertValidationError(api.post("/v1/courses", "{\"teacherId\": \"t-1\"}"), "name");
        assertValidationError(api.post("/v1/courses", "{\"teacherId\": \"  \", \"name\": \"Algebra\"}"), "teacherId");
        assertValidationError(api.post("/v1/courses", "{\"teacherId\": 42, \"name\": \"Algebra\"}"), "teacherId");
        assertValidationError(api.post("/v1/courses", "{\"teacherId\": \"t-1\", \"name\": [\"Algebra\"]}"), "name");
        assertValidationError(api.post("/v1/courses", "{\"teacherId\": \"t-1\", \"name\": {\"x\": 1}}"), "name");
        Reply both = api.post("/v1/courses", "{}");
        assertThat(both.status()).isEqualTo(400);
        assertThat(fieldsOf(both.json().get("errors"))).containsExactlyInAnyOrder("teacherId", "name");
        Reply malformed = api.post("/v1/courses", "{\"teacherId\": ");
        assertThat(malformed.status()).isEqualTo(400);
        assertThat(malformed.json().get("code").asString()).isEqualTo("VALIDATION_ERROR");
        assertThat(coursesStored()).isZero();
    }

    @Test
    void listsTheCoursesOfATeacher() {
        String first = createCourse("teacher-a", "Algebra");
        String second = createCourse("teacher-a", "Geometry");
        String other = createCourse("teacher-b", "Physics");

        Reply mine = api.get("/v1/courses?teacherId=teacher-a");

        assertThat(mine.status()).isEqualTo(200);
        assertThat(mine.fieldNames()).containsExactly("data");
        assertThat(idsOf(mine.json().get("data"))).containsExactly(second, first);
        JsonNode course = mine.json().get("data").get(1);
        assertThat(names(course)).containsExactlyElementsOf(COURSE_FIELDS);
        assertThat(course.get("name").asString()).isEqualTo("Algebra");
        assertThat(course.get("teacherId").asString()).isEqualTo("teacher-a");
        assertThat(course.get("tenantId").asString()).isEqualTo(tenant.id());
        assertThat(idsOf(api.get("/v1/courses").json().get("data"))).containsExactlyInAnyOrder(first, second, other);
        assertThat(api.get("/v1/courses?teacherId=nobody").json().get("data").size())
                .isZero();
        TestTenant stranger = service.newTenant("homework-stranger");
        assertThat(stranger.homework()
                        .get("/v1/courses?teacherId=teacher-a")
                        .json()
                        .get("data")
                        .size())
                .isZero();
    }

    @Test
    void publishesAHomeworkInTheShapeOfTheList() {
        String courseId = createCourse("teacher-1", "Algebra");

        Reply reply = api.post("/v1/homeworks", """
                {"teacherId": "teacher-1", "courseId": "%s", "assignmentId": "hw-1", "subject": "Fractions",
                 "files": [{"fileType": "task", "fileName": "task.md", "content": "Add 1/2 and 1/3."},
                           {"fileType": "solution", "fileName": "solution.py", "content": "print(5/6)"},
                           {"fileType": "restriction", "fileName": "rules.txt", "content": ""}]}""".formatted(courseId));

        assertThat(reply.status()).isEqualTo(201);
        assertThat(reply.fieldNames())
                .containsExactly(
                        "id",
                        "tenantId",
                        "teacherId",
                        "assignmentId",
                        "subject",
                        "courseId",
                        "createdAt",
                        "updatedAt",
                        "files",
                        "course",
                        "rubric",
                        "testTimeoutSeconds",
                        "warnings");
        JsonNode homework = reply.json();
        String id = homework.get("id").asString();
        assertThat(id).matches(UUID_TEXT);
        assertThat(homework.get("tenantId").asString()).isEqualTo(tenant.id());
        assertThat(homework.get("teacherId").asString()).isEqualTo("teacher-1");
        assertThat(homework.get("assignmentId").asString()).isEqualTo("hw-1");
        assertThat(homework.get("subject").asString()).isEqualTo("Fractions");
        assertThat(homework.get("courseId").asString()).isEqualTo(courseId);
        assertThat(homework.get("createdAt").asString()).matches(TIMESTAMP);
        assertThat(homework.get("updatedAt").asString()).matches(TIMESTAMP);
        JsonNode files = homework.get("files");
        assertThat(files.isArray()).isTrue();
        assertThat(files.size()).isEqualTo(3);
        JsonNode task = files.get(0);
        assertThat(names(task)).containsExactlyElementsOf(FILE_FIELDS);
        assertThat(task.get("id").asString()).matches(UUID_TEXT);
        assertThat(task.get("homeworkId").asString()).isEqualTo(id);
        assertThat(task.get("fileType").asString()).isEqualTo("task");
        assertThat(task.get("fileName").asString()).isEqualTo("task.md");
        assertThat(task.get("filePath").asString()).isEqualTo("homeworks/" + id + "/task/task.md");
        assertThat(task.get("content").asString()).isEqualTo("Add 1/2 and 1/3.");
        assertThat(task.get("createdAt").asString()).matches(TIMESTAMP);
        assertThat(task.get("updatedAt").asString()).matches(TIMESTAMP);
        assertThat(files.get(1).get("fileType").asString()).isEqualTo("solution");
        assertThat(files.get(1).get("fileName").asString()).isEqualTo("solution.py");
        assertThat(files.get(2).get("fileType").asString()).isEqualTo("restriction");
        assertThat(files.get(2).get("content").isString()).isTrue();
        assertThat(files.get(2).get("content").asString()).isEmpty();
        JsonNode course = homework.get("course");
        assertThat(names(course)).containsExactlyElementsOf(COURSE_FIELDS);
        assertThat(course.get("id").asString()).isEqualTo(courseId);
        assertThat(course.get("name").asString()).isEqualTo("Algebra");
        assertThat(course.get("tenantId").asString()).isEqualTo(tenant.id());

        Reply read = api.get("/v1/homeworks/" + id);
        assertThat(read.status()).isEqualTo(200);
        assertThat(read.json()).isEqualTo(homework);
        JsonNode listed = api.get("/v1/homeworks").json().get("data").get(0);
        assertThat(listed).isEqualTo(homework);
    }

    @Test
    void theSubjectIsLeftOutWhenThereIsNone() {
        String courseId = createCourse("teacher-1", "Algebra");

        Reply reply = api.post("/v1/homeworks", """
                {"teacherId": "teacher-1", "courseId": "%s", "assignmentId": "hw-2"}""".formatted(courseId));

        assertThat(reply.status()).isEqualTo(201);
        assertThat(reply.fieldNames())
                .containsExactly(
                        "id",
                        "tenantId",
                        "teacherId",
                        "assignmentId",
                        "courseId",
                        "createdAt",
                        "updatedAt",
                        "files",
                        "course",
                        "rubric",
                        "testTimeoutSeconds",
                        "warnings");
        assertThat(reply.json().get("files").isArray()).isTrue();
        assertThat(reply.json().get("files").size()).isZero();
        String id = reply.json().get("id").asString();
        assertThat(api.get("/v1/homeworks/" + id).json().has("subject")).isFalse();
        assertThat(api.get("/v1/homeworks").json().get("data").get(0).has("subject"))
                .isFalse();
    }

    @Test
    void aHomeworkNeedsACourseOfThisTenant() {
        String mine = createCourse("teacher-1", "Algebra");
        TestTenant other = service.newTenant("homework-other");
        String theirs = other.homework()
                .post("/v1/courses", "{\"teacherId\": \"teacher-1\", \"name\": \"Theirs\"}")
                .json()
                .get("id")
                .asString();

        for (String courseId : List.of(UUID.randomUUID().toString(), theirs, "not-a-uuid", "")) {
            Reply reply = api.post("/v1/homeworks", """
                    {"teacherId": "teacher-1", "courseId": "%s", "assignmentId": "hw-1"}""".formatted(courseId));
            assertValidationError(reply, "courseId");
        }
        assertValidationError(
                api.post("/v1/homeworks", "{\"teacherId\": \"teacher-1\", \"assignmentId\": \"hw-1\"}"), "courseId");
        assertValidationError(api.post("/v1/homeworks", """
                        {"teacherId": "teacher-1", "courseId": 12, "assignmentId": "hw-1"}"""), "courseId");
        assertValidationError(api.post("/v1/homeworks", """
                        {"teacherId": "teacher-1", "courseId": "%s"}""".formatted(mine)), "assignmentId");
        assertValidationError(api.post("/v1/homeworks", """
                        {"courseId": "%s", "assignmentId": "hw-1"}""".formatted(mine)), "teacherId");
        assertThat(homeworksStored()).isZero();
    }

    @Test
    void everyFileNeedsAKnownTypeANameAndContent() {
        String courseId = createCourse("teacher-1", "Algebra");
        String template = """
                {"teacherId": "teacher-1", "courseId": "%s", "assignmentId": "hw-1",
                 "files": [{"fileType": "task", "fileName": "ok.md", "content": "fine"}, %s]}""";

        assertValidationError(
                api.post(
                        "/v1/homeworks",
                        template.formatted(
                                courseId, "{\"fileType\": \"hint\", \"fileName\": \"a\", \"content\": \"x\"}")),
                "files[1].fileType");
        assertValidationError(
                api.post(
                        "/v1/homeworks",
                        template.formatted(
                                courseId, "{\"fileType\": \"TASK\", \"fileName\": \"a\", \"content\": \"x\"}")),
                "files[1].fileType");
        assertValidationError(
                api.post("/v1/homeworks", template.formatted(courseId, "{\"fileType\": \"task\", \"content\": \"x\"}")),
                "files[1].fileName");
        assertValidationError(
                api.post(
                        "/v1/homeworks",
                        template.formatted(
                                courseId, "{\"fileType\": \"task\", \"fileName\": \"\", \"content\": \"x\"}")),
                "files[1].fileName");
        assertValidationError(
                api.post(
                        "/v1/homeworks", template.formatted(courseId, "{\"fileType\": \"task\", \"fileName\": \"a\"}")),
                "files[1].content");
        assertThat(api.post("/v1/homeworks", """
                                {"teacherId": "t", "courseId": "%s", "assignmentId": "a", "files": "task.md"}""".formatted(courseId)).status()).isEqualTo(400);
        assertThat(homeworksStored()).isZero();
    }

    @Test
    void aHomeworkOfAnotherTenantOrUnknownIsNotFound() {
        String id = createHomework(createCourse("teacher-1", "Algebra"), "hw-1", null);
        Api stranger = service.newTenant("homework-stranger").homework();

        for (Reply reply : List.of(
                api.get("/v1/homeworks/" + UUID.randomUUID()),
                api.get("/v1/homeworks/not-a-uuid"),
                api.get("/v1/homeworks/123"),
                stranger.get("/v1/homeworks/" + id))) {
            assertThat(reply.status()).isEqualTo(404);
            assertThat(reply.header("Content-Type")).startsWith("application/problem+json");
            assertThat(reply.json().get("code").asString()).isEqualTo("NOT_FOUND");
            assertThat(reply.json().get("fix").asString()).isNotBlank();
            assertThat(reply.json().get("request_id").asString()).isNotBlank();
        }
        assertThat(stranger.get("/v1/homeworks").json().get("total").asInt()).isZero();
    }

    @Test
    void homeworkEndpointsNeedTheTenantKey() {
        Api anonymous = service.api();
        assertThat(anonymous.get("/v1/homeworks").status()).isEqualTo(401);
        assertThat(anonymous.get("/v1/courses").status()).isEqualTo(401);
        assertThat(anonymous
                        .with("x-tenant-api-secret", "wrong")
                        .get("/v1/homeworks")
                        .status())
                .isEqualTo(401);
        assertThat(anonymous
                        .with("x-tenant-api-secret", "wrong")
                        .get("/v1/homeworks")
                        .json()
                        .get("code")
                        .asString())
                .isEqualTo("UNAUTHORIZED");
    }

    @Test
    void listsTenAtATimeNewestFirst() {
        String courseId = createCourse("teacher-1", "Algebra");
        List<String> created = new ArrayList<>();
        for (int i = 1; i <= 12; i++) {
            created.add(publish(courseId, "teacher-1", "hw-" + i, null).id().toString());
        }

        Reply first = api.get("/v1/homeworks");

        assertThat(first.status()).isEqualTo(200);
        assertThat(first.fieldNames()).containsExactly("data", "nextPage", "prevPage", "total");
        assertThat(first.json().get("data").isArray()).isTrue();
        assertThat(first.json().get("nextPage").isBoolean()).isTrue();
        assertThat(first.json().get("prevPage").isBoolean()).isTrue();
        assertThat(first.json().get("total").isIntegralNumber()).isTrue();
        assertThat(idsOf(first.json().get("data")))
                .containsExactlyElementsOf(created.reversed().subList(0, 10));
        assertThat(first.json().get("total").asInt()).isEqualTo(12);
        assertThat(first.json().get("nextPage").asBoolean()).isTrue();
        assertThat(first.json().get("prevPage").asBoolean()).isFalse();

        Reply second = api.get("/v1/homeworks?offset=10");
        assertThat(idsOf(second.json().get("data"))).containsExactly(created.get(1), created.get(0));
        assertThat(second.json().get("nextPage").asBoolean()).isFalse();
        assertThat(second.json().get("prevPage").asBoolean()).isTrue();
        assertThat(second.json().get("total").asInt()).isEqualTo(12);
    }

    @Test
    void homeworksCreatedInTheSameInstantAreOrderedByIdDescending() {
        String courseId = createCourse("teacher-1", "Algebra");
        for (int i = 0; i < 5; i++) {
            publish(courseId, "teacher-1", "twin-" + i, null);
        }
        Instant same = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        jdbc.sql("UPDATE homeworks SET created_at = :at WHERE tenant_id = :tenant")
                .param("at", Sql.at(same))
                .param("tenant", tenant.uuid())
                .update();
        String older = publish(courseId, "teacher-1", "older", null).id().toString();
        jdbc.sql("UPDATE homeworks SET created_at = :at WHERE id = :id")
                .param("at", Sql.at(same.minusSeconds(60)))
                .param("id", UUID.fromString(older))
                .update();

        List<String> listed = idsOf(api.get("/v1/homeworks").json().get("data"));

        assertThat(listed).hasSize(6).endsWith(older);
        List<String> twins = listed.subList(0, 5);
        assertThat(twins).isSortedAccordingTo(Comparator.reverseOrder());
        List<String> paged = new ArrayList<>();
        for (int offset = 0; offset < 6; offset++) {
            paged.addAll(idsOf(
                    api.get("/v1/homeworks?limit=1&offset=" + offset).json().get("data")));
        }
        assertThat(paged).containsExactlyElementsOf(listed);
    }

    @Test
    void pagingAtTheEdges() {
        String courseId = createCourse("teacher-1", "Algebra");
        List<String> created = new ArrayList<>();
        for (int i = 1; i <= 3; i++) {
            created.add(publish(courseId, "teacher-1", "hw-" + i, null).id().toString());
        }

        Reply pastTheEnd = api.get("/v1/homeworks?offset=5");
        assertThat(pastTheEnd.status()).isEqualTo(200);
        assertThat(pastTheEnd.json().get("data").size()).isZero();
        assertThat(pastTheEnd.json().get("total").asInt()).isEqualTo(3);
        assertThat(pastTheEnd.json().get("nextPage").asBoolean()).isFalse();
        assertThat(pastTheEnd.json().get("prevPage").asBoolean()).isTrue();

        Reply atTheEnd = api.get("/v1/homeworks?offset=3");
        assertThat(atTheEnd.json().get("data").size()).isZero();
        assertThat(atTheEnd.json().get("total").asInt()).isEqualTo(3);

        Reply one = api.get("/v1/homeworks?limit=1");
        assertThat(idsOf(one.json().get("data"))).containsExactly(created.get(2));
        assertThat(one.json().get("nextPage").asBoolean()).isTrue();
        assertThat(one.json().get("prevPage").asBoolean()).isFalse();

        Reply middle = api.get("/v1/homeworks?limit=1&offset=1");
        assertThat(idsOf(middle.json().get("data"))).containsExactly(created.get(1));
        assertThat(middle.json().get("nextPage").asBoolean()).isTrue();
        assertThat(middle.json().get("prevPage").asBoolean()).isTrue();

        Reply last = api.get("/v1/homeworks?limit=2&offset=1");
        assertThat(idsOf(last.json().get("data"))).containsExactly(created.get(1), created.get(0));
        assertThat(last.json().get("nextPage").asBoolean()).isFalse();
        assertThat(last.json().get("prevPage").asBoolean()).isTrue();

        Reply hundred = api.get("/v1/homeworks?limit=100");
        assertThat(hundred.status()).isEqualTo(200);
        assertThat(hundred.json().get("data").size()).isEqualTo(3);
        assertThat(hundred.json().get("nextPage").asBoolean()).isFalse();
    }

    @Test
    void invalidPagingParametersAre400() {
        for (String query : List.of(
                "limit=101", "limit=0", "limit=-1", "limit=abc", "limit=1.5", "offset=-1", "offset=x", "limit=")) {
            Reply reply = api.get("/v1/homeworks?" + query);
            assertThat(reply.status()).as(query).isEqualTo(400);
            assertThat(reply.header("Content-Type")).as(query).startsWith("application/problem+json");
            assertThat(reply.json().get("code").asString()).isEqualTo("VALIDATION_ERROR");
            assertThat(reply.json().get("errors").size()).as(query).isEqualTo(1);
            assertThat(reply.json().get("errors").get(0).get("field").asString())
                    .isEqualTo(query.substring(0, query.indexOf('=')));
        }
        Reply both = api.get("/v1/homeworks?limit=0&offset=-1");
        assertThat(fieldsOf(both.json().get("errors"))).containsExactlyInAnyOrder("limit", "offset");
    }

    @Test
    void filtersByTeacherAndCourse() {
        String algebra = createCourse("teacher-1", "Algebra");
        String geometry = createCourse("teacher-1", "Geometry");
        String physics = createCourse("teacher-2", "Physics");
        String a1 = publish(algebra, "teacher-1", "a1", null).id().toString();
        String a2 = publish(algebra, "teacher-1", "a2", null).id().toString();
        String g1 = publish(geometry, "teacher-1", "g1", null).id().toString();
        String p1 = publish(physics, "teacher-2", "p1", null).id().toString();

        assertThat(listIds("teacherId=teacher-1")).containsExactly(g1, a2, a1);
        assertThat(listIds("teacherId=teacher-2")).containsExactly(p1);
        assertThat(listIds("teacherId=nobody")).isEmpty();
        assertThat(listIds("courseId=" + algebra)).containsExactly(a2, a1);
        assertThat(listIds("courseId=" + algebra + "&courseId=" + physics)).containsExactly(p1, a2, a1);
        assertThat(listIds("courseId=" + geometry + "," + physics)).containsExactly(p1, g1);
        assertThat(listIds("courseId=" + geometry + "&courseId=" + geometry)).containsExactly(g1);
        assertThat(listIds("courseId=" + physics + "&teacherId=teacher-1")).isEmpty();
        assertThat(listIds("courseId=" + algebra + "," + physics + "&teacherId=teacher-2"))
                .containsExactly(p1);
        assertThat(listIds("courseId=" + UUID.randomUUID())).isEmpty();
        assertThat(listIds("courseId=not-a-uuid")).isEmpty();

        Reply filtered = api.get("/v1/homeworks?limit=1&courseId=" + algebra + "&courseId=" + geometry);
        assertThat(filtered.json().get("total").asInt()).isEqualTo(3);
        assertThat(filtered.json().get("nextPage").asBoolean()).isTrue();
        assertThat(idsOf(filtered.json().get("data"))).containsExactly(g1);

        Api stranger = service.newTenant("homework-stranger").homework();
        Reply theirs = stranger.get("/v1/homeworks?courseId=" + algebra);
        assertThat(theirs.status()).isEqualTo(200);
        assertThat(theirs.json().get("total").asInt()).isZero();
    }

    @Test
    void searchMatchesAssignmentSubjectCourseNameAndFileNameCaseInsensitively() {
        String algebra = createCourse("teacher-1", "Linear Algebra");
        String poetry = createCourse("teacher-1", "Poetry");
        String byAssignment =
                publish(algebra, "teacher-1", "Quadratic-Equations", null).id().toString();
        String bySubject = publish(poetry, "teacher-1", "week-2", "Sonnets of Shakespeare")
                .id()
                .toString();
        String byFile = catalog.publish(
                        tenant.tenantId(),
                        new NewHomework(
                                "teacher-1",
                                poetry,
                                "week-3",
                                null,
                                List.of(new NewHomework.NewFile("task", "Haiku_Rules.md", "Write one."))))
                .id()
                .toString();
        String plain = publish(poetry, "teacher-1", "week-4", null).id().toString();

        assertThat(listIds("search=quadratic")).containsExactly(byAssignment);
        assertThat(listIds("search=QUADRATIC-eq")).containsExactly(byAssignment);
        assertThat(listIds("search=shakespeare")).containsExactly(bySubject);
        assertThat(listIds("search=haiku_rules.MD")).containsExactly(byFile);
        assertThat(listIds("search=linear alg".replace(" ", "%20"))).containsExactly(byAssignment);
        assertThat(listIds("search=poetry")).containsExactly(plain, byFile, bySubject);
        assertThat(listIds("search=week")).containsExactly(plain, byFile, bySubject);
        assertThat(listIds("search=nothing-like-it")).isEmpty();
        assertThat(listIds("search=")).hasSize(4);
        assertThat(listIds("search=poetry&courseId=" + algebra)).isEmpty();

        Reply counted = api.get("/v1/homeworks?search=week&limit=1&offset=1");
        assertThat(counted.json().get("total").asInt()).isEqualTo(3);
        assertThat(idsOf(counted.json().get("data"))).containsExactly(byFile);
        assertThat(counted.json().get("nextPage").asBoolean()).isTrue();
        assertThat(counted.json().get("prevPage").asBoolean()).isTrue();
    }

    @Test
    void percentAndUnderscoreInTheSearchAreLiteral() {
        String courseId = createCourse("teacher-1", "Statistics");
        String percent = publish(courseId, "teacher-1", "100% done", null).id().toString();
        String underscore = publish(courseId, "teacher-1", "part_a", null).id().toString();
        String backslash =
                publish(courseId, "teacher-1", "dir\\file", null).id().toString();
        publish(courseId, "teacher-1", "100 xdone", null);
        publish(courseId, "teacher-1", "partXa", null);

        assertThat(listIds("search=" + encoded("%"))).containsExactly(percent);
        assertThat(listIds("search=" + encoded("0% d"))).containsExactly(percent);
        assertThat(listIds("search=" + encoded("_"))).containsExactly(underscore);
        assertThat(listIds("search=" + encoded("t_a"))).containsExactly(underscore);
        assertThat(listIds("search=" + encoded("\\"))).containsExactly(backslash);
        assertThat(listIds("search=" + encoded("%_%"))).isEmpty();
        assertThat(api.get("/v1/homeworks?search=" + encoded("_"))
                        .json()
                        .get("total")
                        .asInt())
                .isEqualTo(1);
    }

    private List<String> listIds(String query) {
        Reply reply = api.get("/v1/homeworks?limit=100&" + query);
        assertThat(reply.status()).as(query).isEqualTo(200);
        List<String> ids = idsOf(reply.json().get("data"));
        assertThat(reply.json().get("total").asInt()).as(query).isEqualTo(ids.size());
        return ids;
    }

    private String createCourse(String teacherId, String name) {
        Reply reply = api.post("/v1/courses", "{\"teacherId\": \"" + teacherId + "\", \"name\": \"" + name + "\"}");
        assertThat(reply.status()).isEqualTo(201);
        return reply.json().get("id").asString();
    }

    private String createHomework(String courseId, String assignmentId, @Nullable String subject) {
        Reply reply = api.post("/v1/homeworks", """
                {"teacherId": "teacher-1", "courseId": "%s", "assignmentId": "%s"%s}""".formatted(
                        courseId, assignmentId, subject == null ? "" : ", \"subject\": \"" + subject + "\""));
        assertThat(reply.status()).isEqualTo(201);
        return reply.json().get("id").asString();
    }

    /** Publishes in-process, so that tests that need many assignments stay far from the tenant's rate limit. */
    private Homework publish(String courseId, String teacherId, String assignmentId, @Nullable String subject) {
        return catalog.publish(
                tenant.tenantId(),
                new NewHomework(
                        teacherId,
                        courseId,
                        assignmentId,
                        subject,
                        List.of(new NewHomework.NewFile("task", assignmentId + "-task.md", "Do it."))));
    }

    private long coursesStored() {
        return jdbc.sql("SELECT count(*) FROM courses WHERE tenant_id = :tenant")
                .param("tenant", tenant.uuid())
                .query(Long.class)
                .single();
    }

    private long homeworksStored() {
        return jdbc.sql("SELECT count(*) FROM homeworks WHERE tenant_id = :tenant")
                .param("tenant", tenant.uuid())
                .query(Long.class)
                .single();
    }

    static void assertValidationError(Reply reply, String field) {
        assertThat(reply.status()).as(reply.toString()).isEqualTo(400);
        assertThat(reply.header("Content-Type")).startsWith("application/problem+json");
        JsonNode problem = reply.json();
        assertThat(problem.get("status").asInt()).isEqualTo(400);
        assertThat(problem.get("code").asString()).isEqualTo("VALIDATION_ERROR");
        assertThat(problem.get("detail").asString()).isNotBlank();
        assertThat(problem.get("fix").asString()).isNotBlank();
        assertThat(problem.get("request_id").asString()).isNotBlank();
        assertThat(fieldsOf(problem.get("errors"))).as(reply.toString()).containsExactly(field);
    }

    static List<String> fieldsOf(JsonNode errors) {
        List<String> fields = new ArrayList<>();
        errors.forEach(error -> fields.add(error.get("field").asString()));
        return fields;
    }

    static String encoded(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    static List<String> idsOf(JsonNode array) {
        List<String> ids = new ArrayList<>();
        array.forEach(item -> ids.add(item.get("id").asString()));
        return ids;
    }

    static List<String> names(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.propertyNames().forEach(names::add);
        return names;
    }
}
