package com.chatreview.support;

import static org.assertj.core.api.Assertions.fail;

import com.chatreview.ChatReviewApplication;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.springframework.util.FileSystemUtils;

/**
 * The real service in a JVM of its own, on the embedded PostgreSQL in a data directory of its own, for tests that
 * kill it ({@code SIGKILL}) and start it again on the same data. Its output goes to {@code target/<name>/}. It starts
 * from the {@link StartupCache}.
 */
public final class ServiceProcess implements AutoCloseable {

    public static final String ADMIN_TOKEN = "x";
    private static final Duration STARTUP = Duration.ofSeconds(90);
    private static final Duration STOP = Duration.ofSeconds(120);

    private final List<Process> runs = new ArrayList<>();
    /** Where this service records the startup cache as it exits: only the one that records it has this. */
    private @Nullable Path recording;

    private @Nullable String recordingClassPath;

    private final Map<String, String> extraEnvironment;
    /** The PostgreSQL server of the test's own it runs on, or {@code null}: the embedded one in its data directory. */
    private @Nullable OwnPostgres postgres;

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

    /**
     * The service on a PostgreSQL server of the test's own ({@link OwnPostgres}), for tests that stop the database
     * or hold its locks; {@link #close} stops both.
     */
    public static ServiceProcess onOwnPostgres(String name, Map<String, String> extraEnvironment) throws IOException {
        OwnPostgres postgres = OwnPostgres.start(name);
        Map<String, String> environment = new HashMap<>(extraEnvironment);
        environment.put("DATABASE_URL", postgres.jdbcUrl());
        environment.put("DATABASE_USER", postgres.user());
        ServiceProcess service = new ServiceProcess(name, environment);
        service.postgres = postgres;
        return service;
    }

    public OwnPostgres postgres() {
        return Objects.requireNonNull(postgres, "this service runs on its embedded PostgreSQL");
    }

    public int port() {
        return port;
    }

    /**
     * Starts the service (again) and waits until it reports UP. Never while a run is alive: the new one would find
     * its port taken, and the old one answer for it.
     */
    public void start() throws IOException, InterruptedException {
        if (running()) {
            throw new IllegalStateException("Run " + runs.size() + " of the service is still running: stop it first");
        }
        int run = runs.size() + 1;
        Path log = logDir.resolve("service-" + run + ".log");
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m",
                "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC",
                "--enable-native-access=ALL-UNNAMED"));
        if (recording != null) {
            command.addAll(
                    List.of("-cp", Objects.requireNonNull(recordingClassPath), "-XX:AOTCacheOutput=" + recording));
        } else {
            StartupCache.Prepared prepared = StartupCache.prepared();
            command.addAll(List.of("-cp", prepared.classPath()));
            prepared.cache().ifPresent(cache -> command.add("-XX:AOTCache=" + cache));
            if (runs.isEmpty()
                    && !extraEnvironment.containsKey("DATABASE_URL")
                    && prepared.dataTemplate().isPresent()) {
                StartupCache.copy(prepared.dataTemplate().get(), dataDir);
            }
        }
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
            // the line README tells a script to wait for, then the health it promises
            if (new String(Files.readAllBytes(log), StandardCharsets.UTF_8)
                            .contains("Chat review service ready at http://localhost:" + port + "/")
                    && healthy(api)) {
                return;
            }
            Thread.sleep(100);
        }
        fail("The service (run " + run + ") did not say it was ready and answer UP within " + STARTUP + ":\n"
                + tail(log));
    }

    /** The service that records the {@link StartupCache}: it runs with that class path and writes the cache as it exits. */
    static ServiceProcess recording(String name, String classPath, Path cache) throws IOException {
        ServiceProcess recorder = new ServiceProcess(name, Map.of());
        recorder.recordingClassPath = classPath;
        recorder.recording = cache;
        return recorder;
    }

    Path dataDir() {
        return dataDir;
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

    /**
     * Stops every run and the PostgreSQL a killed run left behind, then deletes the data; then the PostgreSQL server
     * of its own, if it has one.
     */
    @Override
    public void close() throws IOException {
        try {
            for (Process service : runs.reversed()) {
                stop(service.toHandle());
            }
            orphanedPostgres().ifPresent(ServiceProcess::stop);
            if (orphanedPostgres().isEmpty()) {
                FileSystemUtils.deleteRecursively(dataDir);
            }
        } finally {
            if (postgres != null) {
                postgres.close();
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
