package com.chatreview.submission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.chatreview.ChatReviewApplication;
import com.chatreview.support.Api;
import com.chatreview.support.Api.Multipart;
import com.chatreview.support.Api.Reply;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * "The files are stored durably before the 201 is sent" (decisions §7), tested the hard way: the real service in
 * a JVM of its own on the embedded PostgreSQL, killed with SIGKILL right after the 201, then started again on the
 * same {@code DATA_DIR}. Not an {@code *IntegrationTests} class: it brings its own database, so it runs once.
 */
class SubmissionDurabilityTests {

    static final String ADMIN_TOKEN = "x";
    static final Duration STARTUP = Duration.ofSeconds(90);
    static final Duration STOP = Duration.ofSeconds(60);

    static final List<Process> services = new ArrayList<>();
    static Path dataDir;
    static Path logDir;
    static int port;

    @BeforeAll
    static void prepare() throws IOException {
        dataDir = Files.createTempDirectory("crs-durability");
        logDir = Path.of(System.getProperty("basedir", "."), "target", "durability");
        Files.createDirectories(logDir);
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
    }

    @AfterAll
    static void stopEverything() throws IOException {
        for (Process service : services.reversed()) {
            stop(service);
        }
        if (dataDir == null) {
            return;
        }
        orphanedPostgres().ifPresent(SubmissionDurabilityTests::stop);
        if (orphanedPostgres().isEmpty()) {
            try (Stream<Path> files = Files.walk(dataDir)) {
                files.sorted(Comparator.reverseOrder())
                        .forEach(path -> path.toFile().delete());
            }
        }
    }

    @Test
    void anAcknowledgedSubmissionSurvivesAKill() throws Exception {
        startService(1);
        Api admin = new Api(port).with("X-Admin-Token", ADMIN_TOKEN);
        Reply tenant = admin.post("/admin/v1/tenants", "{\"name\": \"durability\"}");
        assertThat(tenant.status()).as(tenant.toString()).isEqualTo(201);
        String apiKey = tenant.json().get("api_key").asString();
        Api api = new Api(port).with("x-tenant-api-secret", apiKey);
        String courseId = created(api.post("/v1/courses", "{\"teacherId\": \"teacher-1\", \"name\": \"Algebra\"}"))
                .get("id")
                .asString();
        String homeworkId = created(api.post("/v1/homeworks", """
                        {"teacherId": "teacher-1", "courseId": "%s", "assignmentId": "hw-1",
                         "files": [{"fileType": "task", "fileName": "task.md", "content": "Sum 1 and 2."}]}""".formatted(courseId)))
                .get("id")
                .asString();
        Map<String, byte[]> sent = Map.of(
                "main.py", "print(1 + 2)\n".getBytes(StandardCharsets.UTF_8),
                "notes.md", "# Notes\nIt prints 3.\n".getBytes(StandardCharsets.UTF_8),
                "data.bin", bytes(300_000));
        Multipart upload = new Multipart().field("studentId", "student-1");
        List<String> order = List.of("main.py", "notes.md", "data.bin");
        order.forEach(name -> upload.file("files", name, "application/octet-stream", sent.get(name)));

        JsonNode submission = created(api.upload("/v1/homeworks/" + homeworkId + "/submissions", upload));
        services.getLast().toHandle().destroyForcibly();
        assertThat(services.getLast().waitFor(30, TimeUnit.SECONDS)).isTrue();

        startService(2);
        String path = "/v1/homeworks/" + homeworkId + "/submissions/"
                + submission.get("id").asString();
        Reply after = api.get(path);
        assertThat(after.status()).as(after.toString()).isEqualTo(200);
        assertThat(after.json()).isEqualTo(submission);
        JsonNode files = after.json().get("files");
        assertThat(files.size()).isEqualTo(3);
        for (int i = 0; i < order.size(); i++) {
            byte[] content = sent.get(order.get(i));
            assertThat(files.get(i).get("fileName").asString()).isEqualTo(order.get(i));
            assertThat(files.get(i).get("size").asLong()).isEqualTo(content.length);
            assertThat(files.get(i).get("sha256").asString()).isEqualTo(sha256(content));
        }
        assertThat(api.get("/v1/homeworks/" + homeworkId).status()).isEqualTo(200);
        Reply chat = new Api(port)
                .with("X-API-Key", apiKey)
                .get("/api/v1/chats/" + submission.get("chatId").asString());
        assertThat(chat.status()).as(chat.toString()).isEqualTo(200);
        assertThat(chat.json().get("user_id").asString()).isEqualTo("student-1");
        assertThat(new Api(port)
                        .with("x-tenant-api-secret", "wrong")
                        .get("/v1/homeworks")
                        .status())
                .isEqualTo(401);
    }

    private static JsonNode created(Reply reply) {
        assertThat(reply.status()).as(reply.toString()).isEqualTo(201);
        return reply.json();
    }

    /** Starts the service and waits until it reports UP; its output goes to {@code target/durability/}. */
    private static void startService(int run) throws IOException, InterruptedException {
        Path log = logDir.resolve("service-" + run + ".log");
        ProcessBuilder builder = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-Xmx512m",
                        "-XX:TieredStopAtLevel=1",
                        "-cp",
                        System.getProperty("java.class.path"),
                        ChatReviewApplication.class.getName())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        Map<String, String> environment = builder.environment();
        for (String name : List.of(
                "DATABASE_URL", "DATABASE_USER", "DATABASE_PASSWORD", "REDIS_URL", "CHAT_UI_URL", "AI_PROVIDER")) {
            environment.remove(name);
        }
        environment.put("DATA_DIR", dataDir.toString());
        environment.put("SERVER_PORT", Integer.toString(port));
        environment.put("ADMIN_TOKEN", ADMIN_TOKEN);
        Process service = builder.start();
        services.add(service);
        Api api = new Api(port);
        Instant deadline = Instant.now().plus(STARTUP);
        while (Instant.now().isBefore(deadline)) {
            if (!service.isAlive()) {
                fail("The service (run " + run + ") exited with " + service.exitValue() + ":\n" + tail(log));
            }
            if (healthy(api)) {
                return;
            }
            Thread.sleep(500);
        }
        fail("The service (run " + run + ") was not UP within " + STARTUP + ":\n" + tail(log));
    }

    private static boolean healthy(Api api) {
        try {
            Reply health = api.get("/actuator/health");
            return health.status() == 200
                    && "UP".equals(health.json().get("status").asString());
        } catch (UncheckedIOException e) {
            return false;
        }
    }

    /** Stops a process gracefully, forcibly when it does not stop in time. */
    private static void stop(Process process) {
        stop(process.toHandle());
    }

    private static void stop(ProcessHandle process) {
        if (!process.isAlive()) {
            return;
        }
        process.destroy();
        try {
            process.onExit().get(STOP.toSeconds(), TimeUnit.SECONDS);
        } catch (Exception e) {
            process.destroyForcibly();
        }
    }

    /** A PostgreSQL still holding the data directory (a killed service leaves its PostgreSQL running). */
    private static Optional<ProcessHandle> orphanedPostgres() throws IOException {
        Path pidFile = dataDir.resolve("postgres").resolve("postmaster.pid");
        if (!Files.exists(pidFile)) {
            return Optional.empty();
        }
        return Files.readAllLines(pidFile).stream()
                .findFirst()
                .map(String::trim)
                .filter(line -> line.matches("\\d+"))
                .flatMap(pid -> ProcessHandle.of(Long.parseLong(pid)))
                .filter(ProcessHandle::isAlive)
                .filter(process -> process.info()
                        .command()
                        .map(command -> command.contains("postgres"))
                        .orElse(false));
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    private static byte[] bytes(int size) {
        byte[] bytes = new byte[size];
        for (int i = 0; i < size; i++) {
            bytes[i] = (byte) (i * 31 + i / 256);
        }
        return bytes;
    }

    private static String sha256(byte[] bytes) throws NoSuchAlgorithmException {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    }
}
