package com.chatreview.support;

import static org.assertj.core.api.Assertions.fail;

import com.chatreview.ChatReviewApplication;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * The real service in a JVM of its own, on the embedded PostgreSQL in a data directory of its own, for tests that
 * kill it ({@code SIGKILL}) and start it again on the same data. Its output goes to {@code target/<name>/}.
 */
public final class ServiceProcess implements AutoCloseable {

    public static final String ADMIN_TOKEN = "x";
    private static final Duration STARTUP = Duration.ofSeconds(90);
    private static final Duration STOP = Duration.ofSeconds(120);

    private final List<Process> runs = new ArrayList<>();
    /** Where this service records the startup cache as it exits: only the one run that records it has this. */
    private @Nullable Path recording;

    private final Map<String, String> extraEnvironment;
    private final Path dataDir;
    private final Path logDir;
    private final int port;

    public ServiceProcess(String name, Map<String, String> extraEnvironment) throws IOException {
        this.extraEnvironment = extraEnvironment;
        this.dataDir = Files.createTempDirectory("crs-" + name);
        this.logDir = Path.of(System.getProperty("basedir", "."), "target", name);
        Files.createDirectories(logDir);
        try (ServerSocket socket = new ServerSocket(0)) {
            this.port = socket.getLocalPort();
        }
    }

    public int port() {
        return port;
    }

    /** Starts the service (again) and waits until it reports UP. */
    public void start() throws IOException, InterruptedException {
        int run = runs.size() + 1;
        Path log = logDir.resolve("service-" + run + ".log");
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m",
                "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC",
                "-cp",
                classPath()));
        command.addAll(startupCacheOptions());
        command.add(ChatReviewApplication.class.getName());
        ProcessBuilder builder =
                new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        Map<String, String> environment = builder.environment();
        for (String variable : List.of(
                "DATABASE_URL", "DATABASE_USER", "DATABASE_PASSWORD", "REDIS_URL", "CHAT_UI_URL", "AI_PROVIDER")) {
            environment.remove(variable);
        }
        environment.put("DATA_DIR", dataDir.toString());
        environment.put("SERVER_PORT", Integer.toString(port));
        environment.put("ADMIN_TOKEN", ADMIN_TOKEN);
        // the tests and nginx connect from 127.0.0.1: their X-Forwarded-For names the client
        environment.put("TRUSTED_PROXIES", "127.0.0.1");
        environment.putAll(extraEnvironment);
        Process service = builder.start();
        runs.add(service);
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

    private static @Nullable String classPath;

    /**
     * JDK 25's ahead-of-time cache of the classes the service loads and links as it starts (8.3 s to 3.3 s a start
     * here, on an idle machine). The first service this test JVM starts waits until a run of its own has recorded
     * one ({@link #recordStartupCache}); every later start maps it.
     */
    private List<String> startupCacheOptions() throws IOException, InterruptedException {
        if (Runtime.version().feature() < 25) {
            return List.of();
        }
        if (recording != null) {
            return List.of("-XX:AOTCacheOutput=" + recording);
        }
        Optional<Path> cache = recordStartupCache();
        return cache.map(path -> List.of("-XX:AOTCache=" + path)).orElse(List.of());
    }

    private static boolean recordingTried;

    /**
     * The startup cache, recorded once per test JVM by a run of the service that starts and stops as an orchestrator
     * stops it (the cache is written as it exits, about 13 s more), into a file of its own that is then moved in
     * place: a running service maps the cache, so it is never written over. Empty when recording failed: the
     * services then start without one.
     */
    private static synchronized Optional<Path> recordStartupCache() throws IOException, InterruptedException {
        Path cache = startupCache();
        if (!recordingTried) {
            recordingTried = true;
            Path recorded = archives().resolve("service-" + fork() + "-recording.aot");
            Files.deleteIfExists(recorded);
            try (ServiceProcess recorder = new ServiceProcess("startup-cache-" + fork(), Map.of())) {
                recorder.recording = recorded;
                recorder.start();
                recorder.terminate();
            } catch (AssertionError | IOException e) {
                System.err.println("No startup cache (the services start without one): " + e.getMessage());
            }
            if (Files.exists(recorded)) {
                Files.move(recorded, cache, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            }
        }
        return Files.exists(cache) ? Optional.of(cache) : Optional.empty();
    }

    private static Path startupCache() throws IOException {
        return archives().resolve("service-" + fork() + ".aot");
    }

    /**
     * The test JVM's class path, each directory in it ({@code target/classes}, {@code target/test-classes}) packed
     * into a jar of its own once per test JVM: a class-data archive takes classes from jars only.
     */
    private static synchronized String classPath() throws IOException {
        if (classPath == null) {
            List<String> entries = new ArrayList<>();
            String[] testClassPath = System.getProperty("java.class.path").split(File.pathSeparator);
            for (int i = 0; i < testClassPath.length; i++) {
                Path entry = Path.of(testClassPath[i]);
                if (Files.isDirectory(entry)) {
                    Path jar = archives().resolve("classes-" + fork() + "-" + i + ".jar");
                    pack(entry, jar);
                    entries.add(jar.toString());
                } else {
                    entries.add(testClassPath[i]);
                }
            }
            classPath = String.join(File.pathSeparator, entries);
            // a cache of an earlier test JVM's run names jars packed then
            Files.deleteIfExists(startupCache());
        }
        return classPath;
    }

    /** A jar of the directory's files, with an entry for each directory too (package scans ask for those). */
    private static void pack(Path directory, Path jar) throws IOException {
        try (Stream<Path> paths = Files.walk(directory);
                JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            for (Path path : paths.sorted().toList()) {
                if (path.equals(directory)) {
                    continue;
                }
                String name = directory.relativize(path).toString().replace(File.separatorChar, '/');
                if (Files.isDirectory(path)) {
                    out.putNextEntry(new JarEntry(name + "/"));
                } else {
                    out.putNextEntry(new JarEntry(name));
                    Files.copy(path, out);
                }
                out.closeEntry();
            }
        }
    }

    private static Path archives() throws IOException {
        return Files.createDirectories(Path.of(System.getProperty("basedir", "."), "target", "class-archives"));
    }

    private static String fork() {
        return System.getProperty("test.fork", "0");
    }

    /** Whether the latest run is alive. */
    public boolean running() {
        return !runs.isEmpty() && runs.getLast().isAlive();
    }

    /** A new tenant, made through the admin API of the running service: its API key. */
    public String newTenant(String name) {
        Api.Reply tenant = new Api(port)
                .with("X-Admin-Token", ADMIN_TOKEN)
                .post("/admin/v1/tenants", Api.JSON.writeValueAsString(java.util.Map.of("name", name)));
        if (tenant.status() != 201) {
            throw new AssertionError("no tenant: " + tenant);
        }
        return tenant.json().get("api_key").asString();
    }

    /** Kills the running service with SIGKILL: no shutdown hook, no graceful anything. */
    public void kill() throws InterruptedException {
        Process service = runs.getLast();
        service.toHandle().destroyForcibly();
        if (!service.waitFor(30, TimeUnit.SECONDS)) {
            fail("The service did not die");
        }
    }

    /** Stops the running service as an orchestrator does (SIGTERM) and waits until it has exited. */
    public void terminate() throws InterruptedException {
        Process service = runs.getLast();
        service.destroy();
        if (!service.waitFor(STOP.toSeconds(), TimeUnit.SECONDS)) {
            fail("The service did not stop within " + STOP);
        }
    }

    /** Stops every run and the PostgreSQL a killed run left behind, then deletes the data. */
    @Override
    public void close() throws IOException {
        for (Process service : runs.reversed()) {
            stop(service.toHandle());
        }
        orphanedPostgres().ifPresent(ServiceProcess::stop);
        if (orphanedPostgres().isEmpty()) {
            try (Stream<Path> files = Files.walk(dataDir)) {
                files.sorted(Comparator.reverseOrder())
                        .forEach(path -> path.toFile().delete());
            }
        }
    }

    private static boolean healthy(Api api) {
        try {
            Api.Reply health = api.get("/actuator/health");
            return health.status() == 200
                    && "UP".equals(health.json().get("status").asString());
        } catch (UncheckedIOException e) {
            return false;
        }
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
    private Optional<ProcessHandle> orphanedPostgres() throws IOException {
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
}
