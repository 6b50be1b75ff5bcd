package com.chatreview.testrun;

import com.chatreview.testrun.TestRun.Outcome;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Java with JUnit 5: the student's and the teacher's {@code .java} files compiled together ({@code javac --release
 * 21}), then the teacher's test classes alone run by JUnit's console launcher, mounted read-only at
 * {@code /tools}. The JVM is sized to the sandbox's limits (a 256 MiB heap, the serial collector, bounded class and
 * code spaces), and the report is moved to the run's chosen name, so that a file the student handed in under the
 * launcher's fixed report name is never read as the report.
 */
final class JavaTests implements TestKit {

    static final String LAUNCHER = "junit-platform-console-standalone.jar";

    private static final List<String> JVM_FLAGS = List.of(
            "-Xmx256m",
            "-Xss1m",
            "-XX:+UseSerialGC",
            "-XX:TieredStopAtLevel=1",
            "-XX:CompressedClassSpaceSize=64m",
            "-XX:ReservedCodeCacheSize=64m",
            "-XX:-UsePerfData");

    private static final Pattern PACKAGE = Pattern.compile("(?m)^\\s*package\\s+([\\w.]+)\\s*;");
    private static final Pattern TEST_METHOD = Pattern.compile(
            "@(?:Test|ParameterizedTest|RepeatedTest)\\b(?:\\([^)]*\\))?(?:\\s*@\\w+(?:\\([^)]*\\))?)*\\s*"
                    + "(?:(?:public|protected|private|static|final|synchronized)\\s+)*void\\s+(\\w+)\\s*\\(");
    /** {@code at Fractions.add(Fractions.java:3)}: a frame of a Java stack trace. */
    private static final Pattern FRAME = Pattern.compile("\\(([\\w$-]+\\.java):(\\d+)\\)");
    /** {@code Fractions.java:3: error: ';' expected}: a compiler error. */
    private static final Pattern COMPILE_ERROR =
            Pattern.compile("(?m)^(?:/work/)?([\\w$.-]+\\.java):(\\d+): error: (.*)$");

    private final @Nullable Path javaHome;
    private final @Nullable Path launcher;
    private final @Nullable String unavailable;

    JavaTests(@Nullable Path javaHome, @Nullable Path launcher, @Nullable String unavailable) {
        this.javaHome = javaHome;
        this.launcher = launcher;
        this.unavailable = unavailable;
    }

    @Override
    public @Nullable String whyUnavailable() {
        return unavailable;
    }

    @Override
    public Map<String, Path> tools() {
        return launcher == null ? Map.of() : Map.of(LAUNCHER, launcher);
    }

    @Override
    public boolean keptOut(String fileName) {
        return fileName.equals("module-info.java") || fileName.equals("package-info.java");
    }

    /** Compiles every {@code .java} file, then runs the test classes (named by their files and packages). */
    @Override
    public List<String> command(Map<String, String> testFiles, String report) {
        String java = javaHome + "/bin/java";
        String javac = javaHome + "/bin/javac";
        String classes = ".classes-" + report;
        String reports = ".reports-" + report;
        List<String> compilerFlags = JVM_FLAGS.stream().map(flag -> "-J" + flag).toList();
        List<String> selected = new ArrayList<>();
        testFiles.forEach((name, source) -> {
            Matcher pkg = PACKAGE.matcher(source);
            String simple = name.substring(0, name.length() - ".java".length());
            selected.add("--select-class=" + (pkg.find() ? pkg.group(1) + "." + simple : simple));
        });
        // the shell sees the file names as they are: every one of them is plain (letters, digits, '_', '.', '-')
        String script = String.join(
                "\n",
                "mkdir " + classes + " || exit 125",
                javac + " " + String.join(" ", compilerFlags) + " --release 21 -encoding UTF-8 -nowarn -d " + classes
                        + " -cp /tools/" + LAUNCHER + " *.java || exit 3",
                java + " " + String.join(" ", JVM_FLAGS) + " -jar /tools/" + LAUNCHER + " execute --class-path "
                        + classes + " " + String.join(" ", selected) + " --reports-dir=" + reports
                        + " --details=tree --disable-banner --disable-ansi-colors",
                "status=$?",
                "if [ -f " + reports + "/TEST-junit-jupiter.xml ]; then mv " + reports + "/TEST-junit-jupiter.xml "
                        + report + "; fi",
                "exit $status");
        return List.of("/bin/sh", "-c", script);
    }

    @Override
    public List<String> declaredTests(Map<String, String> testFiles) {
        List<String> names = new ArrayList<>();
        testFiles.forEach((name, source) -> {
            String simple = name.substring(0, name.length() - ".java".length());
            Matcher method = TEST_METHOD.matcher(source);
            while (method.find()) {
                names.add(simple + "." + method.group(1) + "()");
            }
        });
        return names;
    }

    @Override
    public String name(JUnitXml.Case testCase) {
        String className = testCase.className();
        String simple = className.substring(className.lastIndexOf('.') + 1);
        return simple.isEmpty() ? testCase.name() : simple + "." + testCase.name();
    }

    @Override
    public boolean isLoadFailure(JUnitXml.Case testCase) {
        return false;
    }

    /** Outermost first: a Java trace lists its innermost frame first. */
    @Override
    public List<Place> places(String trace) {
        List<Place> places = new ArrayList<>();
        Matcher compile = COMPILE_ERROR.matcher(trace);
        if (compile.find()) {
            places.add(new Place(compile.group(1), Integer.parseInt(compile.group(2))));
            return places;
        }
        Matcher frame = FRAME.matcher(trace);
        while (frame.find()) {
            places.add(new Place(frame.group(1), Integer.parseInt(frame.group(2))));
        }
        Collections.reverse(places);
        return places;
    }

    @Override
    public Optional<String> firstError(String text) {
        Matcher compile = COMPILE_ERROR.matcher(text);
        if (compile.find()) {
            return Optional.of(compile.group(1) + ":" + compile.group(2) + ": error: "
                    + compile.group(3).strip());
        }
        Matcher error = Pattern.compile("(?m)^\\s*((?:[\\w$]+\\.)*[\\w$]*(?:Error|Exception)\\b.*)$")
                .matcher(text);
        return error.find() ? Optional.of(error.group(1).strip()) : Optional.empty();
    }

    @Override
    public Map<String, Outcome> finished(String output) {
        // the launcher reports the tests at the end of the run: a run stopped at its time limit finished none
        return Map.of();
    }
}
