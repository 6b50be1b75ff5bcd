package com.chatreview.webhook;

import com.chatreview.support.Api;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * Standard Webhooks' own verifier, the npm package {@code standardwebhooks} (a verifier no one here wrote), run by
 * node on one delivery. Installed with {@code npm ci} from {@code src/test/webhook-verifier} (its lock file is
 * committed) the first time it is needed. Without node and npm the tests that need it skip loudly, unless
 * {@code CI=true}: then they fail.
 */
final class StandardWebhooksVerifier {

    private static final Path HOME = Path.of(System.getProperty("basedir", "."), "src", "test", "webhook-verifier");
    private static final Path PACKAGE = HOME.resolve("node_modules").resolve("standardwebhooks");

    /** What the verifier said: {@code verified}, or {@code refused: <why>}. */
    record Verdict(boolean verified, String output) {}

    private StandardWebhooksVerifier() {}

    static Verdict verify(String secret, Map<String, String> headers, String body) throws Exception {
        install();
        Process node = new ProcessBuilder("node", "verify.js")
                .directory(HOME.toFile())
                .redirectErrorStream(true)
                .start();
        try (var in = node.getOutputStream()) {
            in.write(Api.JSON.writeValueAsBytes(Map.of("secret", secret, "headers", headers, "body", body)));
        }
        if (!node.waitFor(30, TimeUnit.SECONDS)) {
            node.destroyForcibly();
            throw new IllegalStateException("The standardwebhooks verifier did not answer in 30 s");
        }
        String output = new String(node.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        return new Verdict(node.exitValue() == 0, output);
    }

    private static synchronized void install() throws Exception {
        for (String tool : List.of("node", "npm")) {
            boolean found = Arrays.stream(
                            System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
                    .anyMatch(dir -> Files.isExecutable(Path.of(dir, tool)));
            if (!found) {
                unavailable(tool + " is not on the PATH");
            }
        }
        if (Files.exists(PACKAGE)) {
            return;
        }
        Path log = Files.createTempFile("webhook-verifier-npm", ".log");
        Process npm = new ProcessBuilder("npm", "ci", "--no-audit", "--no-fund")
                .directory(HOME.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        if (!npm.waitFor(5, TimeUnit.MINUTES)) {
            npm.destroyForcibly();
            throw new IllegalStateException("npm ci for the webhook verifier took longer than 5 minutes");
        }
        if (npm.exitValue() != 0 || !Files.exists(PACKAGE)) {
            unavailable("npm ci in " + HOME + " failed:\n" + Files.readString(log));
        }
    }

    private static void unavailable(String reason) {
        if ("true".equalsIgnoreCase(System.getenv("CI"))) {
            throw new IllegalStateException("CI=true and the webhook verifier tests need node: " + reason);
        }
        String notice = "\n!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!\n"
                + "!! SKIPPED the tests against the standardwebhooks verifier: " + reason + "\n"
                + "!! Install Node.js 18+ with npm to run them.\n"
                + "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!\n";
        System.err.println(notice);
        Assumptions.abort(notice);
    }
}
