package com.chatreview.homework;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.grading.Rubric;
import com.chatreview.kernel.FieldProblem;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The rubric a teacher sends, read from the JSON tree: each problem named as the client wrote the field. */
class RubricInputTests {

    static final JsonMapper JSON = JsonMapper.builder().build();

    @Test
    void readsTheCriteriaInOrderStrippingTheTexts() {
        List<FieldProblem> problems = new ArrayList<>();

        Optional<Rubric> rubric = RubricInput.read(json("""
                        {"criteria": [
                          {"id": "works", "title": " It works ", "description": "  Prints 5/6. ", "maxPoints": 70},
                          {"id": "style", "title": "Readable", "description": "   ", "maxPoints": 30, "extra": 1}]}"""), problems);

        assertThat(problems).isEmpty();
        assertThat(rubric)
                .contains(new Rubric(List.of(
                        new Rubric.Criterion("works", "It works", "Prints 5/6.", 70),
                        new Rubric.Criterion("style", "Readable", null, 30))));
    }

    @Test
    void noneGivenIsNoRubricAndNoProblem() {
        List<FieldProblem> problems = new ArrayList<>();

        assertThat(RubricInput.read(null, problems)).isEmpty();
        assertThat(RubricInput.read(json("null"), problems)).isEmpty();
        assertThat(problems).isEmpty();
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', textBlock = """
            7                                                                    | rubric
            {}                                                                   | rubric.criteria
            {"criteria": "a"}                                                    | rubric.criteria
            {"criteria": []}                                                     | rubric.criteria
            {"criteria": [null]}                                                 | rubric.criteria[0]
            {"criteria": [{"title": "A", "maxPoints": 1}]}                       | rubric.criteria[0].id
            {"criteria": [{"id": "A", "title": "A", "maxPoints": 1}]}            | rubric.criteria[0].id
            {"criteria": [{"id": "a.b", "title": "A", "maxPoints": 1}]}          | rubric.criteria[0].id
            {"criteria": [{"id": " a", "title": "A", "maxPoints": 1}]}           | rubric.criteria[0].id
            {"criteria": [{"id": true, "title": "A", "maxPoints": 1}]}           | rubric.criteria[0].id
            {"criteria": [{"id": "a", "maxPoints": 1}]}                          | rubric.criteria[0].title
            {"criteria": [{"id": "a", "title": null, "maxPoints": 1}]}           | rubric.criteria[0].title
            {"criteria": [{"id": "a", "title": {}, "maxPoints": 1}]}             | rubric.criteria[0].title
            {"criteria": [{"id": "a", "title": "A", "description": [], "maxPoints": 1}]} | rubric.criteria[0].description
            {"criteria": [{"id": "a", "title": "A", "maxPoints": 0}]}            | rubric.criteria[0].maxPoints
            {"criteria": [{"id": "a", "title": "A", "maxPoints": 101}]}          | rubric.criteria[0].maxPoints
            {"criteria": [{"id": "a", "title": "A", "maxPoints": 2.5}]}          | rubric.criteria[0].maxPoints
            {"criteria": [{"id": "a", "title": "A", "maxPoints": 1e1}]}          | rubric.criteria[0].maxPoints
            {"criteria": [{"id": "a", "title": "A", "maxPoints": "10"}]}         | rubric.criteria[0].maxPoints
            {"criteria": [{"id": "a", "title": "A", "maxPoints": false}]}        | rubric.criteria[0].maxPoints
            {"criteria": [{"id": "a", "title": "A", "maxPoints": [10]}]}         | rubric.criteria[0].maxPoints
            {"criteria": [{"id": "a", "title": "A", "maxPoints": 4294967297}]}   | rubric.criteria[0].maxPoints
            {"criteria": [{"id": "a", "title": "A"}]}                            | rubric.criteria[0].maxPoints
            """)
    void aWrongRubricNamesItsField(String rubric, String field) {
        List<FieldProblem> problems = new ArrayList<>();

        assertThat(RubricInput.read(json(rubric), problems)).isEmpty();

        assertThat(problems).extracting(FieldProblem::field).containsExactly(field);
        assertThat(problems.getFirst().message()).isNotBlank();
    }

    @Test
    void countsTheCriteriaAndTheLengths() {
        assertThat(fieldsOf(criteria(Rubric.MAX_CRITERIA, 1))).isEmpty();
        assertThat(fieldsOf(criteria(Rubric.MAX_CRITERIA + 1, 1))).containsExactly("rubric.criteria");
        assertThat(fieldsOf(criterion("x".repeat(Rubric.MAX_TITLE), "d".repeat(Rubric.MAX_DESCRIPTION))))
                .isEmpty();
        assertThat(fieldsOf(criterion(" " + "x".repeat(Rubric.MAX_TITLE) + " ", "d")))
                .isEmpty();
        assertThat(fieldsOf(criterion("x".repeat(Rubric.MAX_TITLE + 1), "d")))
                .containsExactly("rubric.criteria[0].title");
        assertThat(fieldsOf(criterion("t", "d".repeat(Rubric.MAX_DESCRIPTION + 1))))
                .containsExactly("rubric.criteria[0].description");
        assertThat(fieldsOf(json("{\"criteria\": [{\"id\": \"%s\", \"title\": \"t\", \"maxPoints\": 100}]}"
                        .formatted("z".repeat(40)))))
                .isEmpty();
    }

    @Test
    void aRepeatedIdIsNamedWhereItRepeatsAndEveryProblemIsKept() {
        List<FieldProblem> problems = new ArrayList<>();
        problems.add(new FieldProblem("teacherId", "is required"));

        Optional<Rubric> rubric = RubricInput.read(json("""
                        {"criteria": [{"id": "a", "title": "A", "maxPoints": 1},
                                      {"id": "b", "title": "", "maxPoints": 1},
                                      {"id": "a", "title": "C", "maxPoints": 1.5},
                                      {"id": "a", "title": "D", "maxPoints": 1}]}"""), problems);

        assertThat(rubric).isEmpty();
        assertThat(problems)
                .extracting(FieldProblem::field)
                .containsExactly(
                        "teacherId",
                        "rubric.criteria[1].title",
                        "rubric.criteria[2].id",
                        "rubric.criteria[2].maxPoints",
                        "rubric.criteria[3].id");
        assertThat(problems.get(2).message()).contains("rubric.criteria[0]");
    }

    private static List<String> fieldsOf(JsonNode rubric) {
        List<FieldProblem> problems = new ArrayList<>();
        RubricInput.read(rubric, problems);
        return problems.stream().map(FieldProblem::field).toList();
    }

    private static JsonNode criteria(int count, int maxPoints) {
        StringBuilder criteria = new StringBuilder();
        for (int i = 0; i < count; i++) {
            criteria.append(i == 0 ? "" : ", ")
                    .append("{\"id\": \"c%d\", \"title\": \"C\", \"maxPoints\": %d}".formatted(i, maxPoints));
        }
        return json("{\"criteria\": [" + criteria + "]}");
    }

    private static JsonNode criterion(String title, String description) {
        return json("{\"criteria\": [{\"id\": \"a\", \"title\": \"%s\", \"description\": \"%s\", \"maxPoints\": 5}]}"
                .formatted(title, description));
    }

    private static JsonNode json(String text) {
        return JSON.readTree(text);
    }
}
