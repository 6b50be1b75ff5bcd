package com.chatreview.assistant;

import com.chatreview.support.NpmPackage;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The npm package {@code @dwmkerr/mock-llm}, a real OpenAI-compatible server, run as a child process on
 * 127.0.0.1. Installed with {@code npm ci} from {@code src/test/mock-llm} (its lock file is committed) the first
 * time it is needed. Without node and npm the tests that need it skip loudly, unless {@code CI=true}: then they
 * fail.
 */
public final class MockLlm implements AutoCloseable {

    private static final Path HOME = Path.of("src/test/mock-llm").toAbsolutePath();
    private static final Path MAIN = HOME.resolve("node_modules/@dwmkerr/mock-llm/dist/main.js");

    private final Process process;
    private final int port;
    private final HttpClient http = HttpClient.newHttpClient();

    private MockLlm(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    /** Starts the server, installing it first if needed; skips (or fails under CI) without node. */
    public static MockLlm start() throws Exception {
        NpmPackage.install(HOME, MAIN, "mock-llm");
        int port = freePort();
        Path log = Files.createTempFile("mock-llm", ".log");
        ProcessBuilder builder = new ProcessBuilder("node", MAIN.toString(), "--config", config().toString())
                .directory(HOME.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment().put("HOST", "127.0.0.1");
        builder.environment().put("PORT", Integer.toString(port));
        MockLlm server = new MockLlm(builder.start(), port);
        server.awaitHealthy(log);
        return server;
    }

    /** The base URL a client is configured with: {@code AI_BASE_URL}. */
    public String baseUrl() {
        return "http://127.0.0.1:" + port + "/v1";
    }

    /** Replaces the server's rules (mock-llm's YAML configuration, see its README). */
    public void configure(String yaml) throws Exception {
        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/config"))
                        .header("Content-Type", "application/x-yaml")
                        .POST(HttpRequest.BodyPublishers.ofString(yaml))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IllegalStateException("mock-llm refused the configuration: " + response.body());
        }
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(5, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }

    private void awaitHealthy(Path log) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("mock-llm stopped at start-up:\n" + Files.readString(log));
            }
            try {
                HttpResponse<String> health = http.send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/health"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                if (health.statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(100);
        }
        close();
        throw new IllegalStateException("mock-llm did not become healthy in 30 s:\n" + Files.readString(log));
    }

    /** A configuration file with no rules: each test sets its own. */
    private static Path config() throws IOException {
        Path config = Files.createTempFile("mock-llm", ".yaml");
        Files.writeString(config, "rules: []\n");
        config.toFile().deleteOnExit();
        return config;
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
