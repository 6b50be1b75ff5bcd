package com.chatreview.database;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A PostgreSQL server the service runs itself, its data under {@code DATA_DIR/postgres}.
 *
 * <p>A service killed with {@code kill -9} leaves its PostgreSQL running (PostgreSQL detaches from the JVM
 * that started it), holding the data directory. The next start stops that orphan first: PostgreSQL's fast
 * shutdown writes everything committed, so nothing that was acknowledged is lost.
 */
final class EmbeddedPostgresServer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedPostgresServer.class);
    private static final Duration ORPHAN_SHUTDOWN_WAIT = Duration.ofSeconds(60);

    private final EmbeddedPostgres postgres;

    private EmbeddedPostgresServer(EmbeddedPostgres postgres) {
        this.postgres = postgres;
    }

    static EmbeddedPostgresServer start(Path dataDir) {
        Path directory = dataDir.toAbsolutePath().resolve("postgres");
        try {
            Files.createDirectories(directory);
            stopOrphanedServer(directory);
            EmbeddedPostgres postgres = EmbeddedPostgres.builder()
                    .setDataDirectory(directory)
                    .setCleanDataDirectory(false)
                    // no JVM hook of its own: it would stop PostgreSQL while Spring still stores the replies in
                    // progress; the context stops it, after the pool, in order
                    .setRegisterShutdownHook(false)
                    .setPGStartupWait(Duration.ofSeconds(60))
                    .setServerConfig("max_connections", "200")
                    .setServerConfig("shared_buffers", "128MB")
                    .setServerConfig("synchronous_commit", "on")
                    .setServerConfig("fsync", "on")
                    .start();
            log.info("Embedded PostgreSQL started on port {} with its data in {}", postgres.getPort(), directory);
            return new EmbeddedPostgresServer(postgres);
        } catch (IOException e) {
            throw new UncheckedIOException("Could not start the embedded PostgreSQL in " + directory, e);
        }
    }

    String jdbcUrl() {
        return postgres.getJdbcUrl("postgres", "postgres");
    }

    @Override
    public void close() throws IOException {
        postgres.close();
    }

    private static void stopOrphanedServer(Path directory) throws IOException {
        Path pidFile = directory.resolve("postmaster.pid");
        if (!Files.exists(pidFile)) {
            return;
        }
        Optional<ProcessHandle> orphan = Files.readAllLines(pidFile).stream()
                .findFirst()
                .map(String::trim)
                .filter(line -> line.matches("\\d+"))
                .flatMap(pid -> ProcessHandle.of(Long.parseLong(pid)))
                .filter(ProcessHandle::isAlive)
                .filter(process -> process.info()
                        .command()
                        .map(command -> command.contains("postgres"))
                        .orElse(false));
        if (orphan.isEmpty()) {
            return;
        }
        ProcessHandle process = orphan.get();
        log.warn(
                "An embedded PostgreSQL (pid {}) from an earlier run still holds {}; stopping it",
                process.pid(),
                directory);
        process.destroy();
        try {
            process.onExit().get(ORPHAN_SHUTDOWN_WAIT.toSeconds(), TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(
                    "The PostgreSQL left running in " + directory + " (pid " + process.pid()
                            + ") did not stop; stop it and start the service again",
                    e);
        }
    }
}
