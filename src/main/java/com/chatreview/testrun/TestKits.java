package com.chatreview.testrun;

import com.chatreview.homework.TestLanguage;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * The kit of each language, as this node can run it: Python and Node.js from the system's {@code /usr}; Java from a
 * JDK of 21 or newer under {@code /usr} (the one the service runs on, when it lives there) with JUnit's console
 * launcher, copied once from the service's resources to {@code tools} beside the runs' directories.
 */
final class TestKits {

    private static final String LAUNCHER_RESOURCE = "/testrun/" + JavaTests.LAUNCHER;

    private final Path toolsDir;
    private final PythonTests python = new PythonTests();
    private final JavaScriptTests javaScript = new JavaScriptTests();
    private volatile @Nullable JavaTests java;

    TestKits(Path toolsDir) {
        this.toolsDir = toolsDir;
    }

    TestKit of(TestLanguage language) {
        return switch (language) {
            case PYTHON -> python;
            case JAVASCRIPT -> javaScript;
            case JAVA -> java();
        };
    }

    private JavaTests java() {
        JavaTests found = java;
        if (found == null) {
            synchronized (this) {
                found = java;
                if (found == null) {
                    found = locateJava();
                    java = found;
                }
            }
        }
        return found;
    }

    private JavaTests locateJava() {
        Optional<Path> jdk = jdk();
        if (jdk.isEmpty()) {
            return new JavaTests(null, null, "no JDK of Java 21 or newer under /usr (Debian: openjdk-21-jdk)");
        }
        try (InputStream launcher = TestKits.class.getResourceAsStream(LAUNCHER_RESOURCE)) {
            if (launcher == null) {
                return new JavaTests(null, null, "JUnit's console launcher is missing from this build of the service");
            }
            Files.createDirectories(toolsDir);
            Files.setPosixFilePermissions(toolsDir, PosixFilePermissions.fromString("rwxr-xr-x"));
            Path copy = toolsDir.resolve(JavaTests.LAUNCHER);
            Path partial = Files.createTempFile(toolsDir, "launcher-", ".part");
            Files.copy(launcher, partial, StandardCopyOption.REPLACE_EXISTING);
            Files.setPosixFilePermissions(partial, PosixFilePermissions.fromString("rw-r--r--"));
            Files.move(partial, copy, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            return new JavaTests(jdk.get(), copy, null);
        } catch (IOException e) {
            throw new UncheckedIOException("JUnit's console launcher could not be copied to " + toolsDir, e);
        }
    }

    /**
     * A JDK of 21 or newer the sandbox can see: the service's own when it is under {@code /usr}, else the newest under
     * {@code /usr/lib/jvm}.
     */
    static Optional<Path> jdk() {
        List<Path> candidates = new ArrayList<>();
        candidates.add(Path.of(System.getProperty("java.home")));
        try (Stream<Path> installed = Files.list(Path.of("/usr/lib/jvm"))) {
            installed.sorted(Comparator.reverseOrder()).forEach(candidates::add);
        } catch (IOException | RuntimeException none) {
            // no JDK installed by the system's packages
        }
        return candidates.stream()
                .map(Path::toAbsolutePath)
                .map(Path::normalize)
                .filter(home -> home.startsWith("/usr/"))
                .filter(home ->
                        Files.isExecutable(home.resolve("bin/javac")) && Files.isExecutable(home.resolve("bin/java")))
                .filter(home -> feature(home) >= 21)
                .findFirst();
    }

    /** The Java version of a JDK, from its {@code release} file ({@code JAVA_VERSION="25.0.3"}); 0 when unknown. */
    private static int feature(Path home) {
        try {
            for (String line : Files.readAllLines(home.resolve("release"))) {
                if (line.startsWith("JAVA_VERSION=")) {
                    String version = line.substring("JAVA_VERSION=".length()).replace("\"", "");
                    String major = version.split("[.+-]")[0];
                    return Integer.parseInt(major.equals("1") ? version.split("\\.")[1] : major);
                }
            }
        } catch (IOException | RuntimeException unreadable) {
            return 0;
        }
        return 0;
    }
}
