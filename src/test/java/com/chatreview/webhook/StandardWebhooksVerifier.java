package com.chatreview.webhook;

import com.chatreview.support.Api;
import com.chatreview.support.NpmPackage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

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
        NpmPackage.install(HOME, PACKAGE, "the standardwebhooks verifier");
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
}
