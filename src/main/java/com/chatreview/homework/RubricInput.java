package com.chatreview.homework;

import com.chatreview.grading.Rubric;
import com.chatreview.kernel.FieldProblem;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * Reads the rubric a teacher sends with an assignment (docs/api.md, The review): {@code {"criteria": [{"id", "title",
 * "description"?, "maxPoints"}]}}. The rubric arrives as a JSON tree, not bound to types, so that each problem names
 * its field as the client wrote it ({@code rubric.criteria[2].maxPoints}) and joins the other problems of the
 * request in one answer, a wrong type included. Properties it does not know are ignored, as everywhere in the API.
 */
final class RubricInput {

    static final String FIELD = "rubric";

    private RubricInput() {}

    /**
     * The rubric, or empty when none was given (absent or JSON {@code null}) or when it is wrong: then each problem is
     * added to {@code problems}.
     */
    static Optional<Rubric> read(@Nullable JsonNode rubric, List<FieldProblem> problems) {
        if (rubric == null || rubric.isNull()) {
            return Optional.empty();
        }
        if (!rubric.isObject()) {
            problems.add(new FieldProblem(FIELD, "must be an object: {\"criteria\": [...]}"));
            return Optional.empty();
        }
        String field = FIELD + ".criteria";
        JsonNode criteria = rubric.get("criteria");
        if (criteria == null || criteria.isNull()) {
            problems.add(new FieldProblem(field, "is required: an array of 1 to " + Rubric.MAX_CRITERIA + " criteria"));
            return Optional.empty();
        }
        if (!criteria.isArray()) {
            problems.add(new FieldProblem(field, "must be an array of 1 to " + Rubric.MAX_CRITERIA + " criteria"));
            return Optional.empty();
        }
        if (criteria.isEmpty() || criteria.size() > Rubric.MAX_CRITERIA) {
            problems.add(new FieldProblem(field, "must hold 1 to " + Rubric.MAX_CRITERIA + " criteria"));
            return Optional.empty();
        }
        int before = problems.size();
        List<Rubric.Criterion> read = new ArrayList<>();
        Map<String, Integer> firstOfId = new HashMap<>();
        for (int i = 0; i < criteria.size(); i++) {
            criterion(criteria.get(i), field + "[" + i + "]", i, firstOfId, problems)
                    .ifPresent(read::add);
        }
        return problems.size() == before ? Optional.of(new Rubric(read)) : Optional.empty();
    }

    private static Optional<Rubric.Criterion> criterion(
            JsonNode criterion, String field, int index, Map<String, Integer> firstOfId, List<FieldProblem> problems) {
        if (!criterion.isObject()) {
            problems.add(new FieldProblem(field, "must be an object: {\"id\", \"title\", \"maxPoints\"}"));
            return Optional.empty();
        }
        int before = problems.size();
        String id = id(criterion.get("id"), field + ".id", problems);
        if (id != null) {
            Integer first = firstOfId.putIfAbsent(id, index);
            if (first != null) {
                problems.add(new FieldProblem(
                        field + ".id", "repeats the id of " + FIELD + ".criteria[" + first + "]; ids are unique"));
            }
        }
        String title = text(criterion.get("title"), field + ".title", true, Rubric.MAX_TITLE, problems);
        String description =
                text(criterion.get("description"), field + ".description", false, Rubric.MAX_DESCRIPTION, problems);
        int maxPoints = points(criterion.get("maxPoints"), field + ".maxPoints", problems);
        boolean tests = tests(criterion.get("tests"), field + ".tests", problems);
        if (problems.size() > before) {
            return Optional.empty();
        }
        // id and title are null only with a problem of theirs, and there is none
        return Optional.of(new Rubric.Criterion(
                Objects.requireNonNull(id, "an id without a problem"),
                Objects.requireNonNull(title, "a title without a problem"),
                description,
                maxPoints,
                tests));
    }

    /** Whether the homework's tests grade the criterion: a JSON boolean, false when absent or null. */
    private static boolean tests(@Nullable JsonNode tests, String field, List<FieldProblem> problems) {
        if (tests == null || tests.isNull()) {
            return false;
        }
        if (!tests.isBoolean()) {
            problems.add(new FieldProblem(field, "must be true or false"));
            return false;
        }
        return tests.booleanValue();
    }

    /** The id as given (it is not stripped: an id with spaces is wrong, not another id), or {@code null}. */
    private static @Nullable String id(@Nullable JsonNode id, String field, List<FieldProblem> problems) {
        String rule = "1 to 40 characters of a-z, 0-9, '_' and '-'";
        if (id == null || id.isNull()) {
            problems.add(new FieldProblem(field, "is required: " + rule));
            return null;
        }
        if (!id.isString()) {
            problems.add(new FieldProblem(field, "must be a string of " + rule));
            return null;
        }
        if (!Rubric.ID.matcher(id.asString()).matches()) {
            problems.add(new FieldProblem(field, "must be " + rule));
            return null;
        }
        return id.asString();
    }

    /** The text stripped, {@code null} when an optional one is absent, null or blank (or when it is wrong). */
    private static @Nullable String text(
            @Nullable JsonNode text, String field, boolean required, int max, List<FieldProblem> problems) {
        if (text == null || text.isNull()) {
            if (required) {
                problems.add(new FieldProblem(field, "is required and must not be blank"));
            }
            return null;
        }
        if (!text.isString()) {
            problems.add(new FieldProblem(field, "must be a string"));
            return null;
        }
        String stripped = text.asString().strip();
        if (stripped.isEmpty()) {
            if (required) {
                problems.add(new FieldProblem(field, "is required and must not be blank"));
            }
            return null;
        }
        if (stripped.length() > max) {
            problems.add(new FieldProblem(field, "must be at most " + max + " characters"));
            return null;
        }
        return stripped;
    }

    /** The points, or 0 when they are wrong; a number with a fraction, a string or a boolean is wrong. */
    private static int points(@Nullable JsonNode points, String field, List<FieldProblem> problems) {
        String rule = "an integer from 1 to " + Rubric.MAX_POINTS;
        if (points == null || points.isNull()) {
            problems.add(new FieldProblem(field, "is required: " + rule));
            return 0;
        }
        if (!points.isIntegralNumber()
                || !points.canConvertToInt()
                || points.intValue() < 1
                || points.intValue() > Rubric.MAX_POINTS) {
            problems.add(new FieldProblem(field, "must be " + rule));
            return 0;
        }
        return points.intValue();
    }
}
