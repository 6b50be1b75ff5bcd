package com.chatreview.database;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
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
    /** Held while this process uses the data directory: the OS lets go of it when the process ends, however. */
    private final FileChannel lock;

    private EmbeddedPostgresServer(EmbeddedPostgres postgres, FileChannel lock) {
        this.postgres = postgres;
        this.lock = lock;
    }

    static EmbeddedPostgresServer start(Path dataDir) {
        Path directory = dataDir.toAbsolutePath().resolve("postgres");
        FileChannel lock = null;
        try {
            Files.createDirectories(directory);
            lock = lockDataDirectory(dataDir.toAbsolutePath());
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
            return new EmbeddedPostgresServer(postgres, lock);
        } catch (IOException e) {
            closeQuietly(lock);
            throw new UncheckedIOException("Could not start the embedded PostgreSQL in " + directory, e);
        } catch (RuntimeException e) {
            closeQuietly(lock);
            throw e;
        }
    }

    /**
     * Only one running service may use a data directory: a second one would take the first one's PostgreSQL for
     * left over from a crash, and stop it under it.
     */
    private static FileChannel lockDataDirectory(Path dataDir) throws IOException {
        FileChannel channel =
                FileChannel.open(dataDir.resolve("service.lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock held;
        try {
            held = channel.tryLock();
        } catch (OverlappingFileLockException inThisProcess) {
            held = null;
        }
        if (held == null) {
            channel.close();
            throw new IllegalStateException("Another running service uses the data directory " + dataDir
                    + " (DATA_DIR): stop it first, or start this one with another DATA_DIR");
        }
        return channel;
    }

    private static void closeQuietly(FileChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException e) {
                log.debug("Closing the data directory's lock failed", e);
            }
        }
    }

    String jdbcUrl() {
        return postgres.getJdbcUrl("postgres", "postgres");
    }

    @Override
    public void close() throws IOException {
        try {
            postgres.close();
        } finally {
            lock.close();
        }
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
