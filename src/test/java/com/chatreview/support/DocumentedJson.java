package com.chatreview.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * The JSON examples of the repository's docs, held against what the service answers: each example's fields, at every
 * depth, are the answer's, so that a field renamed, added or dropped in the code fails a test until the docs say so.
 * Values are the writer's (ids, times, texts); their kinds are checked where both are given. An object with a
 * {@code "..."} key is shortened: its fields must be among the answer's. An empty array, or an object where the
 * answer has null, shows nothing to hold.
 */
public final class DocumentedJson {

    private DocumentedJson() {}

    /** The {@code ```json} blocks of the section under {@code heading} (any level) of {@code docs/<file>}, in order. */
    public static List<JsonNode> examples(String file, String heading) {
        List<String> lines;
        try {
            lines = Files.readAllLines(Path.of("docs", file));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        int start = -1;
        int level = 0;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.startsWith("#") && line.replaceFirst("^#+\\s*", "").equals(heading)) {
                start = i + 1;
                level = line.indexOf(' ');
                break;
            }
        }
        if (start < 0) {
            throw new AssertionError("docs/" + file + " has no heading " + heading);
        }
        List<JsonNode> blocks = new ArrayList<>();
        StringBuilder block = null;
        for (int i = start; i < lines.size(); i++) {
            String line = lines.get(i);
            if (block == null && line.matches("^#{1," + level + "} .*")) {
                break;
            }
            if (block == null && line.strip().equals("```json")) {
                block = new StringBuilder();
            } else if (block != null && line.strip().equals("```")) {
                blocks.add(Api.JSON.readTree(block.toString()));
                block = null;
            } else if (block != null) {
                block.append(line).append('\n');
            }
        }
        if (blocks.isEmpty()) {
            throw new AssertionError("docs/" + file + ", " + heading + ", shows no JSON example");
        }
        return blocks;
    }

    /** The differences between the example's fields and the answer's; none when the docs show the answer as it is. */
    public static List<String> differences(JsonNode documented, JsonNode answered) {
        List<String> found = new ArrayList<>();
        compare("$", documented, answered, found);
        return found;
    }

    private static void compare(String at, JsonNode documented, JsonNode answered, List<String> found) {
        if (answered.isNull()
                || documented.isNull()
                || documented.isString() && documented.asString().equals("...")) {
            return;
        }
        if (documented.isObject()) {
            if (!answered.isObject()) {
                found.add(at + ": documented as an object, answered " + answered.getNodeType());
                return;
            }
            Set<String> documentedNames = new LinkedHashSet<>(documented.propertyNames());
            Set<String> answeredNames = new LinkedHashSet<>(answered.propertyNames());
            boolean shortened = documentedNames.remove("...");
            for (String name : documentedNames) {
                if (!answeredNames.contains(name)) {
                    found.add(at + "." + name + ": documented, not answered");
                }
            }
            if (!shortened) {
                for (String name : answeredNames) {
                    if (!documentedNames.contains(name)) {
                        found.add(at + "." + name + ": answered, not documented");
                    }
                }
            }
            for (String name : documentedNames) {
                if (answeredNames.contains(name)) {
                    compare(at + "." + name, documented.get(name), answered.get(name), found);
                }
            }
        } else if (documented.isArray()) {
            if (!answered.isArray()) {
                found.add(at + ": documented as an array, answered " + answered.getNodeType());
                return;
            }
            for (int i = 0; i < documented.size() && !answered.isEmpty(); i++) {
                compare(at + "[" + i + "]", documented.get(i), answered.get(Math.min(i, answered.size() - 1)), found);
            }
        } else if (documented.getNodeType() != answered.getNodeType()) {
            found.add(at + ": documented as " + documented.getNodeType() + ", answered " + answered.getNodeType());
        }
    }
}
