package com.chatreview.testrun;

import com.chatreview.testrun.TestRun.Outcome;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Python 3 with pytest (Debian's {@code python3-pytest}). The interpreter runs isolated ({@code -I}: no
 * {@code PYTHON*} variables, no user site), no plugin is loaded but pytest's own, and only the teacher's test files
 * are collected; a student's {@code conftest.py} or pytest configuration stays out of the run.
 */
final class PythonTests implements TestKit {

    /** Files pytest reads its configuration or fixtures from. */
    private static final Set<String> RUNNER_FILES =
            Set.of("conftest.py", "pytest.ini", "pyproject.toml", "tox.ini", "setup.cfg", "sitecustomize.py");

    private static final Pattern DECLARED =
            Pattern.compile("(?m)^([ \\t]*)(?:async[ \\t]+)?def[ \\t]+(test\\w*)[ \\t]*\\(");
    private static final Pattern CLASS = Pattern.compile("(?m)^class[ \\t]+(Test\\w*)");
    /** {@code file.py:12: in function}, as pytest's short traces write a frame. */
    private static final Pattern SHORT_FRAME = Pattern.compile("(?m)^([^\\s:\"<>]+\\.py):(\\d+): ");
    /** {@code File "/work/file.py", line 12}, as Python writes a frame or a syntax error's place. */
    private static final Pattern FILE_FRAME = Pattern.compile("File \"(?:/work/)?([^\"]+\\.py)\", line (\\d+)");
    /** {@code E   ValueError: ...} or a bare {@code SyntaxError: ...}. */
    private static final Pattern ERROR_LINE =
            Pattern.compile("(?m)^(?:E\\s+)?((?:\\w+\\.)*\\w*(?:Error|Exception|Exit)\\b(?::.*)?)$");

    private static final Pattern PROGRESS =
            Pattern.compile("(?m)^[^\\s:]+\\.py::(\\S+) (PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS)\\b");

    @Override
    public @Nullable String whyUnavailable() {
        if (!Files.isExecutable(Path.of("/usr/bin/python3"))) {
            return "Python 3 is not installed (Debian: apt-get install python3-pytest)";
        }
        if (!Files.isDirectory(Path.of("/usr/lib/python3/dist-packages/pytest"))) {
            return "pytest is not installed for the system's Python (Debian: apt-get install python3-pytest)";
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
                "/usr/bin/env",
                "PYTEST_DISABLE_PLUGIN_AUTOLOAD=1",
                "/usr/bin/python3",
                "-I",
                "-m",
                "pytest",
                "-v",
                "-p",
                "no:cacheprovider",
                "--tb=short",
                "--color=no",
                "-o",
                "junit_family=xunit2",
                "--junitxml=" + report,
                "--"));
        command.addAll(testFiles.keySet());
        return command;
    }

    @Override
    public List<String> declaredTests(Map<String, String> testFiles) {
        List<String> names = new ArrayList<>();
        for (String source : testFiles.values()) {
            String testClass = null;
            for (String line : source.split("\n", -1)) {
                Matcher klass = CLASS.matcher(line);
                if (klass.lookingAt()) {
                    testClass = klass.group(1);
                    continue;
                }
                if (!line.isBlank()
                        && !Character.isWhitespace(line.charAt(0))
                        && !line.startsWith("#")
                        && !line.startsWith("@")) {
                    testClass = null;
                }
                Matcher test = DECLARED.matcher(line);
                if (test.lookingAt()) {
                    boolean method = !test.group(1).isEmpty();
                    if (method && testClass != null) {
                        names.add(testClass + "." + test.group(2));
                    } else if (!method) {
                        names.add(test.group(2));
                    }
                }
            }
        }
        return names;
    }

    @Override
    public String name(JUnitXml.Case testCase) {
        // pytest's classname is the module, then the class if the test is a method: "test_median.TestEven"
        String className = testCase.className();
        int dot = className.indexOf('.');
        return dot < 0 ? testCase.name() : className.substring(dot + 1) + "." + testCase.name();
    }

    @Override
    public boolean isLoadFailure(JUnitXml.Case testCase) {
        return testCase.outcome() == Outcome.ERROR
                && testCase.className().isEmpty()
                && "collection failure".equals(testCase.message());
    }

    @Override
    public List<Place> places(String trace) {
        TreeMap<Integer, Place> places = new TreeMap<>();
        for (Pattern frame : List.of(SHORT_FRAME, FILE_FRAME)) {
            Matcher matcher = frame.matcher(trace);
            while (matcher.find()) {
                String file = matcher.group(1);
                places.put(
                        matcher.start(),
                        new Place(file.substring(file.lastIndexOf('/') + 1), Integer.parseInt(matcher.group(2))));
            }
        }
        return List.copyOf(places.values());
    }

    @Override
    public Optional<String> firstError(String text) {
        Matcher matcher = ERROR_LINE.matcher(text);
        while (matcher.find()) {
            String line = matcher.group(1).strip();
            if (!line.startsWith("Interrupted")) {
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
            String name = matcher.group(1).replace("::", ".");
            finished.put(
                    name,
                    switch (matcher.group(2)) {
                        case "PASSED", "XFAIL" -> Outcome.PASSED;
                        case "SKIPPED" -> Outcome.SKIPPED;
                        case "ERROR" -> Outcome.ERROR;
                        default -> Outcome.FAILED;
                    });
        }
        return finished;
    }
}
