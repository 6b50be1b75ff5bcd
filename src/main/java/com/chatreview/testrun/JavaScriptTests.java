package com.chatreview.testrun;

import com.chatreview.testrun.TestRun.Outcome;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * JavaScript with Node.js's own test runner ({@code node --test}), given the teacher's test files by name (a student's
 * {@code *.test.js} is not run), its JUnit reporter writing the report and its spec reporter the output. A module's
 * syntax is detected (CommonJS or ES module, whichever the file is written in), so the student's
 * {@code package.json} stays out of the run.
 */
final class JavaScriptTests implements TestKit {

    /** Node.js as the sandbox sees it: a binary under {@code /usr}, the only part of the host a run has. */
    private static final @Nullable String NODE = node();

    private static final Set<String> RUNNER_FILES = Set.of("package.json", "package-lock.json");
    private static final Pattern DECLARED =
            Pattern.compile("\\b(?:test|it)(?:\\.only|\\.skip|\\.todo)?\\s*\\(\\s*(['\"`])((?:(?!\\1).){1,200})\\1");
    /** {@code (/work/fractions.js:2:40)} or {@code at /work/fractions.js:2:40}: a frame of a trace. */
    private static final Pattern FRAME = Pattern.compile("/work/([\\w.-]+\\.m?js):(\\d+)(?::\\d+)?");

    private static final Pattern ERROR_LINE =
            Pattern.compile("(?m)^\\s*((?:\\w+)?(?:Error|Exception)\\b(?: \\[\\w+\\])?: .*)$");
    private static final Pattern PROGRESS =
            Pattern.compile("(?m)^\\s*([✔✖﹣]) (.+?) \\(\\d[\\d.]*m?s\\)(?: # SKIP.*)?$");

    @Override
    public @Nullable String whyUnavailable() {
        return NODE != null ? null : "Node.js is not installed under /usr (Debian: apt-get install nodejs)";
    }

    private static @Nullable String node() {
        for (String candidate : List.of("/usr/bin/node", "/usr/local/bin/node")) {
            try {
                Path real = Path.of(candidate).toRealPath();
                if (real.startsWith("/usr/") && Files.isExecutable(real)) {
                    return real.toString();
                }
            } catch (java.io.IOException | RuntimeException absent) {
                // not there: the next one
            }
        }
        return null;
    }

    @Override
    public boolean keptOut(String fileName) {
        return RUNNER_FILES.contains(fileName);
    }

    @Override
    public List<String> command(Map<String, String> testFiles, String report) {
        List<String> command = new ArrayList<>(List.of(
                Objects.requireNonNull(NODE, "checked by whyUnavailable"),
                "--experimental-detect-module",
                "--test",
                "--test-reporter=junit",
                "--test-reporter-destination=" + report,
                "--test-reporter=spec",
                "--test-reporter-destination=stdout"));
        command.addAll(testFiles.keySet());
        return command;
    }

    @Override
    public List<String> declaredTests(Map<String, String> testFiles) {
        List<String> names = new ArrayList<>();
        for (String source : testFiles.values()) {
            Matcher test = DECLARED.matcher(source);
            while (test.find()) {
                names.add(test.group(2));
            }
        }
        return names;
    }

    @Override
    public String name(JUnitXml.Case testCase) {
        return testCase.name();
    }

    @Override
    public boolean isLoadFailure(JUnitXml.Case testCase) {
        // a test file that could not be loaded is reported as a test named by its path
        return testCase.outcome() != Outcome.PASSED && testCase.name().startsWith("/work/");
    }

    /** Outermost first: a V8 trace lists its innermost frame first. */
    @Override
    public List<Place> places(String trace) {
        List<Place> places = new ArrayList<>();
        Matcher frame = FRAME.matcher(trace);
        while (frame.find()) {
            places.add(new Place(frame.group(1), Integer.parseInt(frame.group(2))));
        }
        Collections.reverse(places);
        return places;
    }

    @Override
    public Optional<String> firstError(String text) {
        Matcher error = ERROR_LINE.matcher(text);
        while (error.find()) {
            String line = error.group(1).strip();
            if (!line.startsWith("Error [ERR_TEST_FAILURE]")) {
                return Optional.of(line);
            }
        }
        return Optional.empty();
    }

    @Override
    public Map<String, Outcome> finished(String output) {
        Map<String, Outcome> finished = new LinkedHashMap<>();
        Matcher matcher = PROGRESS.matcher(output);
        while (matcher.find()) {
            Outcome outcome = switch (matcher.group(1)) {
                case "✔" -> Outcome.PASSED;
                case "﹣" -> Outcome.SKIPPED;
                default -> Outcome.FAILED;
            };
            finished.put(matcher.group(2), outcome);
        }
        return finished;
    }
}
