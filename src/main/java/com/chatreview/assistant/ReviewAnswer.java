package com.chatreview.assistant;

import com.chatreview.grading.Rubric;
import com.chatreview.grading.Rubric.Criterion;
import com.chatreview.grading.Verdict.Severity;
import com.chatreview.grading.Verdicts.Observation;
import com.chatreview.grading.Verdicts.Proposal;
import com.chatreview.grading.Verdicts.Score;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A model's review as the openai provider asks for it (docs/api.md, The review): one JSON object with points for every
 * criterion of the rubric, findings on the student's files and a summary. {@link #schema} is what a strict
 * endpoint is held to; {@link #read} checks the same shape in code, so an endpoint in JSON mode (which only
 * promises some JSON object) is held to it too, and says what is wrong so that the model can be asked again.
 *
 * <p>Only the shape is checked here; what the answer means (points within each criterion's maximum, findings on
 * files and lines the submission has) is {@code Verdicts.settle}'s to enforce.
 */
final class ReviewAnswer {

    /** The most problems an answer's rejection names: enough to repair it, short enough to read. */
    private static final int MAX_PROBLEMS = 8;

    private static final int MAX_SHOWN = 40;
    private static final JsonMapper JSON = JsonMapper.shared();
    private static final List<String> SEVERITIES =
            Arrays.stream(Severity.values()).map(Severity::value).toList();

    private ReviewAnswer() {}

    /** An answer that does not have the shape asked for; the message says what is wrong, problem by problem. */
    static final class InvalidAnswer extends RuntimeException {

        InvalidAnswer(String problems) {
            super(problems, null, false, false);
        }
    }

    /**
     * The JSON schema of an answer for {@code rubric}, in the subset strict structured outputs accept: every
     * property required, none other allowed, the nullable ones typed {@code [type, "null"]}; the criterion ids
     * are the rubric's.
     */
    static String schema(Rubric rubric) {
        ObjectNode criterion = object();
        ObjectNode criterionProperties = criterion.putObject("properties");
        criterionProperties.set("criterionId", criterionId(rubric));
        criterionProperties.putObject("points").put("type", "integer");
        criterionProperties.putObject("explanation").put("type", "string");
        close(criterion, "criterionId", "points", "explanation");

        ObjectNode finding = object();
        ObjectNode findingProperties = finding.putObject("properties");
        findingProperties.set("criterionId", criterionId(rubric));
        ObjectNode severity = findingProperties.putObject("severity").put("type", "string");
        SEVERITIES.forEach(severity.putArray("enum")::add);
        findingProperties.set("file", nullable("string"));
        findingProperties.set("line", nullable("integer"));
        findingProperties.set("endLine", nullable("integer"));
        findingProperties.putObject("message").put("type", "string");
        close(finding, "criterionId", "severity", "file", "line", "endLine", "message");

        ObjectNode answer = object();
        ObjectNode properties = answer.putObject("properties");
        properties.putObject("criteria").put("type", "array").set("items", criterion);
        properties.putObject("findings").put("type", "array").set("items", finding);
        properties.putObject("summary").put("type", "string");
        close(answer, "criteria", "findings", "summary");
        return JSON.writeValueAsString(answer);
    }

    /**
     * The proposal of an answer for {@code rubric}.
     *
     * @throws InvalidAnswer when the answer is not one JSON object of the shape of {@link #schema}: not JSON, a
     *     property missing or of another type, a severity not in the list, points that are not a whole number, a
     *     criterion of the rubric without points, scored twice, or one the rubric does not have. {@code file},
     *     {@code line} and {@code endLine} may be absent (as null); properties the schema does not name are
     *     ignored; the answer may be wrapped in one Markdown code fence
     */
    static Proposal read(String answer, Rubric rubric) {
        JsonNode root;
        try {
            root = JSON.readTree(unfenced(answer));
        } catch (JacksonException e) {
            throw new InvalidAnswer("it is not JSON (" + shown(firstLine(e.getOriginalMessage())) + ")");
        }
        if (root == null || !root.isObject()) {
            throw new InvalidAnswer("it is not a JSON object");
        }
        Problems problems = new Problems();
        List<Score> scores = scores(root, rubric, problems);
        List<Observation> observations = observations(root, problems);
        String summary = string(root, "summary", "summary", problems);
        problems.throwIfAny();
        // string gives null only with a problem, and there is none
        return new Proposal(
                scores, observations, List.of(), "", Objects.requireNonNull(summary, "a summary without a problem"));
    }

    private static List<Score> scores(JsonNode root, Rubric rubric, Problems problems) {
        JsonNode criteria = root.get("criteria");
        if (criteria == null || !criteria.isArray()) {
            problems.add("criteria must be an array" + described(criteria));
            return List.of();
        }
        Set<String> known = rubric.criteria().stream().map(Criterion::id).collect(Collectors.toSet());
        Set<String> scored = new LinkedHashSet<>();
        List<Score> scores = new ArrayList<>();
        for (int i = 0; i < criteria.size(); i++) {
            String at = "criteria[" + i + "]";
            JsonNode entry = criteria.get(i);
            if (!entry.isObject()) {
                problems.add(at + " must be an object");
                continue;
            }
            String id = string(entry, "criterionId", at + ".criterionId", problems);
            Integer points = integer(entry, "points", at + ".points", problems);
            String explanation = string(entry, "explanation", at + ".explanation", problems);
            if (id == null) {
                continue;
            }
            if (!known.contains(id)) {
                problems.add(at + ".criterionId " + quoted(id) + " is not a criterion of the rubric");
            } else if (!scored.add(id)) {
                problems.add(at + " scores " + quoted(id) + " a second time");
            } else if (points != null && explanation != null) {
                scores.add(new Score(id, points, explanation));
            }
        }
        rubric.criteria().stream()
                .map(Criterion::id)
                .filter(id -> !scored.contains(id))
                .forEach(id -> problems.add("criteria has no entry for the criterion " + quoted(id)));
        return scores;
    }

    private static List<Observation> observations(JsonNode root, Problems problems) {
        JsonNode findings = root.get("findings");
        if (findings == null || !findings.isArray()) {
            problems.add("findings must be an array" + described(findings));
            return List.of();
        }
        List<Observation> observations = new ArrayList<>();
        for (int i = 0; i < findings.size(); i++) {
            String at = "findings[" + i + "]";
            JsonNode entry = findings.get(i);
            if (!entry.isObject()) {
                problems.add(at + " must be an object");
                continue;
            }
            int before = problems.count();
            String criterionId = string(entry, "criterionId", at + ".criterionId", problems);
            String severity = string(entry, "severity", at + ".severity", problems);
            if (severity != null && Severity.of(severity) == null) {
                problems.add(
                        at + ".severity must be one of " + String.join(", ", SEVERITIES) + ", not " + quoted(severity));
            }
            String file = nullableString(entry, "file", at + ".file", problems);
            Integer line = nullableInteger(entry, "line", at + ".line", problems);
            Integer endLine = nullableInteger(entry, "endLine", at + ".endLine", problems);
            String message = string(entry, "message", at + ".message", problems);
            if (problems.count() == before) {
                // string gives null only with a problem, and this finding has none
                observations.add(new Observation(
                        Objects.requireNonNull(criterionId, "a criterion id without a problem"),
                        Severity.of(severity),
                        file,
                        line,
                        endLine,
                        Objects.requireNonNull(message, "a message without a problem")));
            }
        }
        return observations;
    }

    private static @Nullable String string(JsonNode object, String name, String at, Problems problems) {
        JsonNode value = object.get(name);
        if (value == null || !value.isString()) {
            problems.add(at + " must be a string" + described(value));
            return null;
        }
        return value.stringValue();
    }

    private static @Nullable String nullableString(JsonNode object, String name, String at, Problems problems) {
        JsonNode value = object.get(name);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isString()) {
            problems.add(at + " must be a string or null" + described(value));
            return null;
        }
        return value.stringValue();
    }

    private static @Nullable Integer integer(JsonNode object, String name, String at, Problems problems) {
        JsonNode value = object.get(name);
        if (!whole(value)) {
            problems.add(at + " must be a whole number" + described(value));
            return null;
        }
        return value.intValue();
    }

    private static @Nullable Integer nullableInteger(JsonNode object, String name, String at, Problems problems) {
        JsonNode value = object.get(name);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!whole(value)) {
            problems.add(at + " must be a whole number or null" + described(value));
            return null;
        }
        return value.intValue();
    }

    private static boolean whole(@Nullable JsonNode value) {
        return value != null && value.isIntegralNumber() && value.canConvertToInt();
    }

    /** The answer without the one Markdown code fence some models wrap JSON in. */
    private static String unfenced(String answer) {
        String text = answer.strip();
        if (text.startsWith("```") && text.endsWith("```") && text.length() > 6) {
            int firstBreak = text.indexOf('\n');
            return firstBreak < 0 ? text : text.substring(firstBreak + 1, text.length() - 3);
        }
        return text;
    }

    private static String described(@Nullable JsonNode value) {
        return value == null ? ", and it is missing" : ", not " + shown(value.toString());
    }

    private static String quoted(String text) {
        return "\"" + shown(text) + "\"";
    }

    private static String shown(String text) {
        String line = text == null ? "" : text.strip().replaceAll("\\s+", " ");
        return line.length() <= MAX_SHOWN ? line : line.substring(0, MAX_SHOWN) + "…";
    }

    private static String firstLine(@Nullable String text) {
        return text == null ? "" : text.lines().findFirst().orElse("");
    }

    private static ObjectNode object() {
        return JSON.createObjectNode().put("type", "object");
    }

    private static ObjectNode nullable(String type) {
        ObjectNode node = JSON.createObjectNode();
        node.putArray("type").add(type).add("null");
        return node;
    }

    private static ObjectNode criterionId(Rubric rubric) {
        ObjectNode node = JSON.createObjectNode().put("type", "string");
        ArrayNode ids = node.putArray("enum");
        rubric.criteria().forEach(criterion -> ids.add(criterion.id()));
        return node;
    }

    private static void close(ObjectNode object, String... required) {
        ArrayNode names = object.putArray("required");
        Arrays.stream(required).forEach(names::add);
        object.put("additionalProperties", false);
    }

    private static final class Problems {

        private final List<String> found = new ArrayList<>();

        void add(String problem) {
            found.add(problem);
        }

        int count() {
            return found.size();
        }

        void throwIfAny() {
            if (found.isEmpty()) {
                return;
            }
            String shown = String.join("; ", found.stream().limit(MAX_PROBLEMS).toList());
            throw new InvalidAnswer(
                    found.size() > MAX_PROBLEMS ? shown + "; and " + (found.size() - MAX_PROBLEMS) + " more" : shown);
        }
    }
}
