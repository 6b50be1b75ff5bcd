package com.chatreview.homework;

import static com.chatreview.homework.HomeworkApiIntegrationTests.assertValidationError;
import static com.chatreview.homework.HomeworkApiIntegrationTests.fieldsOf;
import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.grading.Rubric;
import com.chatreview.support.Api;
import com.chatreview.support.Api.Reply;
import com.chatreview.support.IntegrationTest;
import com.chatreview.support.TestService;
import com.chatreview.support.TestTenant;
import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** A homework's rubric (docs/api.md, The review, first bullet) over HTTP: given, defaulted, refused field by field. */
@IntegrationTest
class HomeworkRubricIntegrationTests {

    static final String TWO_CRITERIA = """
            {"criteria": [
              {"id": "works", "title": "  It works  ", "description": "Prints 5/6.", "maxPoints": 70},
              {"id": "style_2", "title": "Readable", "maxPoints": 30}]}""";

    @Autowired
    JdbcClient jdbc;

    @Test
    void aRubricGivenIsAnsweredAndReadBackExactly(TestService service, TestTenant tenant) {
        Api api = tenant.homework();

        Reply created = publish(api, TWO_CRITERIA);

        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        assertThat(created.fieldNames()).endsWith("course", "rubric", "testTimeoutSeconds", "warnings");
        JsonNode expected = Api.JSON.readTree("""
                {"criteria": [
                  {"id": "works", "title": "It works", "description": "Prints 5/6.", "maxPoints": 70},
                  {"id": "style_2", "title": "Readable", "description": null, "maxPoints": 30}]}""");
        assertThat(created.json().get("rubric")).isEqualTo(expected);
        String id = created.json().get("id").asString();
        assertThat(api.get("/v1/homeworks/" + id).json()).isEqualTo(created.json());
        assertThat(api.get("/v1/homeworks").json().get("data").get(0)).isEqualTo(created.json());
        assertThat(Api.JSON.readTree(storedRubric(id))).isEqualTo(expected);
        assertThat(service.newTenant("rubric-stranger")
                        .homework()
                        .get("/v1/homeworks/" + id)
                        .status())
                .isEqualTo(404);
    }

    @ParameterizedTest(name = "rubric {0}")
    @MethodSource("noRubric")
    void withoutARubricTheDefaultIsShownAndNoneIsStored(String name, String rubric, TestTenant tenant) {
        Api api = tenant.homework();

        Reply created = publish(api, rubric);

        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        JsonNode shown = created.json().get("rubric");
        assertThat(shown).isEqualTo(json(Rubric.DEFAULT));
        assertThat(shown.get("criteria").size()).isEqualTo(3);
        int total = 0;
        for (JsonNode criterion : shown.get("criteria")) {
            total += criterion.get("maxPoints").asInt();
        }
        assertThat(total).isEqualTo(100);
        assertThat(names(shown.get("criteria").get(0))).containsExactly("id", "title", "description", "maxPoints");
        String id = created.json().get("id").asString();
        assertThat(api.get("/v1/homeworks/" + id).json().get("rubric")).isEqualTo(shown);
        assertThat(api.get("/v1/homeworks").json().get("data").get(0).get("rubric"))
                .isEqualTo(shown);
        assertThat(storedRubric(id)).isNull();
    }

    static Stream<Arguments> noRubric() {
        return Stream.of(Arguments.of("absent", null), Arguments.of("null", "null"));
    }

    @Test
    void theLimitsThemselvesAreAccepted(TestTenant tenant) {
        String twenty = IntStream.range(0, Rubric.MAX_CRITERIA)
                .mapToObj(i -> criterion("c" + i, "x".repeat(Rubric.MAX_TITLE), "d".repeat(Rubric.MAX_DESCRIPTION), 1))
                .collect(Collectors.joining(", ", "{\"criteria\": [", "]}"));
        Reply many = publish(tenant.homework(), twenty);
        assertThat(many.status()).as(many.toString()).isEqualTo(201);
        assertThat(many.json().get("rubric").get("criteria").size()).isEqualTo(20);

        String edges = "{\"criteria\": [" + criterion("a".repeat(40), "Top", null, 100) + ", "
                + criterion("0-_z", "Least", null, 1) + "]}";
        Reply reply = publish(tenant.homework(), edges);
        assertThat(reply.status()).as(reply.toString()).isEqualTo(201);
        assertThat(reply.json()
                        .get("rubric")
                        .get("criteria")
                        .get(0)
                        .get("maxPoints")
                        .asInt())
                .isEqualTo(100);
    }

    @Test
    void unknownPropertiesInARubricAreIgnoredAsEverywhere(TestTenant tenant) {
        Reply reply = publish(tenant.homework(), """
                {"weights": "none", "criteria": [{"id": "a", "title": "A", "maxPoints": 5, "color": "red"}]}""");

        assertThat(reply.status()).as(reply.toString()).isEqualTo(201);
        assertThat(names(reply.json().get("rubric"))).containsExactly("criteria");
        assertThat(names(reply.json().get("rubric").get("criteria").get(0)))
                .containsExactly("id", "title", "description", "maxPoints");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("wrongRubrics")
    void aWrongRubricIs400NamingTheField(String name, String rubric, String field, TestTenant tenant) {
        Reply reply = publish(tenant.homework(), rubric);

        assertValidationError(reply, field);
        assertThat(homeworksOf(tenant)).isZero();
    }

    static Stream<Arguments> wrongRubrics() {
        String ok = criterion("a", "A", null, 10);
        return Stream.of(
                Arguments.of("not an object", "[" + ok + "]", "rubric"),
                Arguments.of("a string", "\"default\"", "rubric"),
                Arguments.of("no criteria", "{}", "rubric.criteria"),
                Arguments.of("null criteria", "{\"criteria\": null}", "rubric.criteria"),
                Arguments.of("criteria not an array", "{\"criteria\": " + ok + "}", "rubric.criteria"),
                Arguments.of("0 criteria", "{\"criteria\": []}", "rubric.criteria"),
                Arguments.of("21 criteria", criteria(21), "rubric.criteria"),
                Arguments.of("a criterion not an object", "{\"criteria\": [" + ok + ", 7]}", "rubric.criteria[1]"),
                Arguments.of(
                        "no id", "{\"criteria\": [{\"title\": \"A\", \"maxPoints\": 1}]}", "rubric.criteria[0].id"),
                Arguments.of("id in capitals", rubric(criterion("Style", "A", null, 1)), "rubric.criteria[0].id"),
                Arguments.of("id with a space", rubric(criterion("a b", "A", null, 1)), "rubric.criteria[0].id"),
                Arguments.of("id of 41", rubric(criterion("a".repeat(41), "A", null, 1)), "rubric.criteria[0].id"),
                Arguments.of("id empty", rubric(criterion("", "A", null, 1)), "rubric.criteria[0].id"),
                Arguments.of(
                        "id a number",
                        "{\"criteria\": [{\"id\": 3, \"title\": \"A\", \"maxPoints\": 1}]}",
                        "rubric.criteria[0].id"),
                Arguments.of(
                        "duplicate id names the later one",
                        rubric(ok, criterion("b", "B", null, 1), criterion("a", "C", null, 1)),
                        "rubric.criteria[2].id"),
                Arguments.of(
                        "no title", "{\"criteria\": [{\"id\": \"a\", \"maxPoints\": 1}]}", "rubric.criteria[0].title"),
                Arguments.of("blank title", rubric(criterion("a", " \\t ", null, 1)), "rubric.criteria[0].title"),
                Arguments.of(
                        "title of 201", rubric(criterion("a", "x".repeat(201), null, 1)), "rubric.criteria[0].title"),
                Arguments.of(
                        "title an array",
                        "{\"criteria\": [{\"id\": \"a\", \"title\": [\"A\"], \"maxPoints\": 1}]}",
                        "rubric.criteria[0].title"),
                Arguments.of(
                        "description of 2001",
                        rubric(criterion("a", "A", "d".repeat(2001), 1)),
                        "rubric.criteria[0].description"),
                Arguments.of(
                        "description a number",
                        "{\"criteria\": [{\"id\": \"a\", \"title\": \"A\", \"description\": 1, \"maxPoints\": 1}]}",
                        "rubric.criteria[0].description"),
                Arguments.of("maxPoints 0", maxPoints("0"), "rubric.criteria[0].maxPoints"),
                Arguments.of("maxPoints 101", maxPoints("101"), "rubric.criteria[0].maxPoints"),
                Arguments.of("maxPoints -5", maxPoints("-5"), "rubric.criteria[0].maxPoints"),
                Arguments.of("maxPoints 2.5", maxPoints("2.5"), "rubric.criteria[0].maxPoints"),
                Arguments.of("maxPoints 10.0", maxPoints("10.0"), "rubric.criteria[0].maxPoints"),
                Arguments.of("maxPoints \"10\"", maxPoints("\"10\""), "rubric.criteria[0].maxPoints"),
                Arguments.of("maxPoints true", maxPoints("true"), "rubric.criteria[0].maxPoints"),
                Arguments.of("maxPoints null", maxPoints("null"), "rubric.criteria[0].maxPoints"),
                Arguments.of(
                        "maxPoints past a long", maxPoints("100000000000000000000000"), "rubric.criteria[0].maxPoints"),
                Arguments.of(
                        "maxPoints missing",
                        "{\"criteria\": [{\"id\": \"a\", \"title\": \"A\"}]}",
                        "rubric.criteria[0].maxPoints"));
    }

    @Test
    void theRubricsProblemsComeWithTheOtherProblemsOfTheRequest(TestTenant tenant) {
        Api api = tenant.homework();
        String courseId = course(api);

        Reply reply = api.post("/v1/homeworks", """
                {"courseId": "%s", "assignmentId": "hw-1",
                 "files": [{"fileType": "hint", "fileName": "a.md", "content": ""}],
                 "rubric": {"criteria": [{"id": "a", "title": "", "maxPoints": 2.5},
                                         {"id": "a", "title": "B", "maxPoints": 1}]}}""".formatted(courseId));

        assertThat(reply.status()).isEqualTo(400);
        assertThat(reply.json().get("code").asString()).isEqualTo("VALIDATION_ERROR");
        assertThat(fieldsOf(reply.json().get("errors")))
                .containsExactly(
                        "teacherId",
                        "files[0].fileType",
                        "rubric.criteria[0].title",
                        "rubric.criteria[0].maxPoints",
                        "rubric.criteria[1].id");
        assertThat(homeworksOf(tenant)).isZero();
    }

    @Test
    void theOpenApiDocumentDescribesTheRubricSentAndShown(TestService service) {
        JsonNode document = service.api().get("/v3/api-docs").json();
        JsonNode publish = document.get("paths").get("/v1/homeworks").get("post");

        JsonNode request = resolve(
                document,
                publish.get("requestBody")
                        .get("content")
                        .get("application/json")
                        .get("schema"));
        JsonNode response = resolve(
                document,
                publish.get("responses")
                        .get("201")
                        .get("content")
                        .values()
                        .iterator()
                        .next()
                        .get("schema"));

        for (JsonNode rubric : List.of(
                request.get("properties").get("rubric"),
                response.get("properties").get("rubric"))) {
            JsonNode criteria = resolve(document, rubric).get("properties").get("criteria");
            assertThat(criteria.get("maxItems").asInt()).as(criteria.toString()).isEqualTo(Rubric.MAX_CRITERIA);
            JsonNode criterion = resolve(document, criteria.get("items"));
            assertThat(names(criterion.get("properties")))
                    .containsExactly("id", "title", "description", "maxPoints", "tests");
            assertThat(criterion
                            .get("properties")
                            .get("maxPoints")
                            .get("maximum")
                            .asInt())
                    .isEqualTo(Rubric.MAX_POINTS);
            assertThat(criterion.get("required").valueStream().map(JsonNode::asString))
                    .containsExactlyInAnyOrder("id", "title", "maxPoints");
        }
    }

    /** The schema a {@code $ref} names, or the schema itself. */
    private static JsonNode resolve(JsonNode document, JsonNode schema) {
        JsonNode ref = schema.get("$ref");
        if (ref == null) {
            return schema;
        }
        String name = ref.asString().substring("#/components/schemas/".length());
        return document.get("components").get("schemas").get(name);
    }

    private static Reply publish(Api api, @Nullable String rubric) {
        String courseId = course(api);
        return api.post("/v1/homeworks", """
                {"teacherId": "teacher-1", "courseId": "%s", "assignmentId": "fractions-1",
                 "files": [{"fileType": "task", "fileName": "task.md", "content": "Add 1/2 and 1/3."}]%s}""".formatted(courseId, rubric == null ? "" : ", \"rubric\": " + rubric));
    }

    private static String course(Api api) {
        Reply course = api.post("/v1/courses", "{\"teacherId\": \"teacher-1\", \"name\": \"Algebra\"}");
        assertThat(course.status()).isEqualTo(201);
        return course.json().get("id").asString();
    }

    private static String criterion(String id, String title, @Nullable String description, int maxPoints) {
        return "{\"id\": \"%s\", \"title\": \"%s\",%s \"maxPoints\": %d}"
                .formatted(
                        id, title, description == null ? "" : " \"description\": \"" + description + "\",", maxPoints);
    }

    private static String rubric(String... criteria) {
        return "{\"criteria\": [" + String.join(", ", criteria) + "]}";
    }

    private static String criteria(int count) {
        return rubric(IntStream.range(0, count)
                .mapToObj(i -> criterion("c" + i, "C" + i, null, 1))
                .toArray(String[]::new));
    }

    private static String maxPoints(String value) {
        return "{\"criteria\": [{\"id\": \"a\", \"title\": \"A\", \"maxPoints\": " + value + "}]}";
    }

    /** The {@code rubric} column as text, {@code null} when it is SQL {@code NULL}. */
    private String storedRubric(String homeworkId) {
        return jdbc.sql("SELECT rubric::text FROM homeworks WHERE id = :id")
                .param("id", UUID.fromString(homeworkId))
                .query((rs, row) -> rs.getString(1))
                .list()
                .getFirst();
    }

    /** The rubric as the API writes it, built here field by field. */
    private static JsonNode json(Rubric rubric) {
        ObjectNode body = Api.JSON.createObjectNode();
        ArrayNode criteria = body.putArray("criteria");
        for (Rubric.Criterion criterion : rubric.criteria()) {
            criteria.addObject()
                    .put("id", criterion.id())
                    .put("title", criterion.title())
                    .put("description", criterion.description())
                    .put("maxPoints", criterion.maxPoints());
        }
        return body;
    }

    private long homeworksOf(TestTenant tenant) {
        return jdbc.sql("SELECT count(*) FROM homeworks WHERE tenant_id = :tenant")
                .param("tenant", tenant.uuid())
                .query(Long.class)
                .single();
    }

    private static List<String> names(JsonNode node) {
        return HomeworkApiIntegrationTests.names(node);
    }
}
