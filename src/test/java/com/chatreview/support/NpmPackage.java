package com.chatreview.support;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * A test tool from the npm registry, installed with {@code npm ci} from a directory of the project holding its
 * {@code package.json} and committed lock file, the first time a test needs it. Without node and npm the tests that
 * need it skip loudly, unless {@code CI=true}: then they fail.
 */
public final class NpmPackage {

    private NpmPackage() {}

    /**
     * Makes sure {@code installed} exists, running {@code npm ci} in {@code home} if it does not.
     *
     * @param what the tool, as the notice of a skip names it
     */
    public static synchronized void install(Path home, Path installed, String what) throws Exception {
        for (String tool : List.of("node", "npm")) {
            boolean found = Arrays.stream(
                            System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
                    .anyMatch(dir -> Files.isExecutable(Path.of(dir, tool)));
            if (!found) {
                unavailable(what, tool + " is not on the PATH");
            }
        }
        if (Files.exists(installed)) {
            return;
        }
        Path log = Files.createTempFile("npm-ci", ".log");
        Process npm = new ProcessBuilder("npm", "ci", "--no-audit", "--no-fund")
                .directory(home.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        if (!npm.waitFor(5, TimeUnit.MINUTES)) {
            npm.destroyForcibly();
            throw new IllegalStateException("npm ci for " + what + " took longer than 5 minutes");
        }
        if (npm.exitValue() != 0 || !Files.exists(installed)) {
            unavailable(what, "npm ci in " + home + " failed:\n" + Files.readString(log));
        }
    }

    private static void unavailable(String what, String reason) {
        if ("true".equalsIgnoreCase(System.getenv("CI"))) {
            throw new IllegalStateException("CI=true and the tests against " + what + " need it: " + reason);
        }
        String notice = "\n!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!\n"
                + "!! SKIPPED the tests against " + what + ": " + reason + "\n"
                + "!! Install Node.js 18+ with npm to run them.\n"
                + "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!\n";
        System.err.println(notice);
        Assumptions.abort(notice);
    }
}
