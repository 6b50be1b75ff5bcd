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
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A PostgreSQL server the service runs itself, its data under {@code DATA_DIR/postgres}.
 *
 * <p>A service killed with {@code kill -9} leaves its PostgreSQL running (PostgreSQL detaches from the JVM
 * that started it), holding the data directory. The next start stops that orphan first: PostgreSQL's fast
 * shutdown writes everything committed, so nothing that was acknowledged is lost.
 *
 * <p>It takes no login without a password: the superuser's is made at the first start (random, 256 bits), kept in
 * {@code DATA_DIR/postgres-password} readable by the service's user alone, and every connection, local socket or
 * loopback TCP (the only address it listens on), must give it by SCRAM-SHA-256. A data directory from before
 * (password-less, {@code trust}) is taken over as it is: its data stay, the password is set and the rule changed
 * while it starts.
 */
final class EmbeddedPostgresServer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedPostgresServer.class);
    private static final Duration ORPHAN_SHUTDOWN_WAIT = Duration.ofSeconds(60);

    static final String PASSWORD_FILE = "postgres-password";
    private static final String SUPERUSER = "postgres";
    /** Who may connect, and how: with the password, by SCRAM, over the socket or loopback only. */
    private static final String HBA = """
            # written by the service at each start (EmbeddedPostgresServer): the password, by SCRAM, on loopback only
            local   all   all                  scram-sha-256
            host    all   all   127.0.0.1/32   scram-sha-256
            host    all   all   ::1/128        scram-sha-256
            """;

    private final EmbeddedPostgres postgres;
    private final String password;
    /** Held while this process uses the data directory: the OS lets go of it when the process ends, however. */
    private final FileChannel lock;

    private EmbeddedPostgresServer(EmbeddedPostgres postgres, String password, FileChannel lock) {
        this.postgres = postgres;
        this.password = password;
        this.lock = lock;
    }

    static EmbeddedPostgresServer start(Path dataDir) {
        Path directory = dataDir.toAbsolutePath().resolve("postgres");
        FileChannel lock = null;
        try {
            Files.createDirectories(directory);
            lock = lockDataDirectory(dataDir.toAbsolutePath());
            stopOrphanedServer(directory);
            String password = password(dataDir.toAbsolutePath());
            boolean fresh = !Files.exists(directory.resolve("postgresql.conf"));
            // a fresh directory gets the password from initdb; one that has a password set gets the rule before start
            boolean passwordSet =
                    fresh || Files.readString(directory.resolve("pg_hba.conf")).equals(HBA);
            EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder()
                    .setDataDirectory(directory)
                    .setConnectConfig("password", password)
                    .setServerConfig("listen_addresses", "127.0.0.1")
                    .setServerConfig("password_encryption", "scram-sha-256")
                    .setCleanDataDirectory(false)
                    // no JVM hook of its own: it would stop PostgreSQL while Spring still stores the replies in
                    // progress; the context stops it, after the pool, in order
                    .setRegisterShutdownHook(false)
                    .setPGStartupWait(Duration.ofSeconds(60))
                    .setServerConfig("max_connections", "200")
                    .setServerConfig("shared_buffers", "128MB")
                    .setServerConfig("synchronous_commit", "on")
                    .setServerConfig("fsync", "on");
            if (fresh) {
                // initdb's own option: the superuser has the password from its first moment
                builder.setLocaleConfig(
                        "pwfile",
                        dataDir.toAbsolutePath().resolve(PASSWORD_FILE).toString());
            }
            if (passwordSet) {
                builder.setDataDirectoryCustomizer(data -> writeHba(data.toPath()));
            }
            EmbeddedPostgres postgres = builder.start();
            if (!passwordSet) {
                takeOver(postgres, directory, password);
            }
            log.info("Embedded PostgreSQL started on port {} with its data in {}", postgres.getPort(), directory);
            return new EmbeddedPostgresServer(postgres, password, lock);
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

    private static void closeQuietly(@Nullable FileChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException e) {
                log.debug("Closing the data directory's lock failed", e);
            }
        }
    }

    String jdbcUrl() {
        return postgres.getJdbcUrl(SUPERUSER, "postgres");
    }

    String user() {
        return SUPERUSER;
    }

    String password() {
        return password;
    }

    /**
     * The superuser's password, made at the first start: {@code DATA_DIR/postgres-password}, readable and writable
     * by the service's user alone.
     */
    static String password(Path dataDir) throws IOException {
        Path file = dataDir.resolve(PASSWORD_FILE);
        if (!Files.exists(file)) {
            byte[] secret = new byte[32];
            new java.security.SecureRandom().nextBytes(secret);
            String made = java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
            Path written = Files.createTempFile(dataDir, PASSWORD_FILE, ".new", ownerOnly());
            Files.writeString(written, made + "\n");
            Files.move(written, file, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        }
        String password = Files.readString(file).strip();
        if (password.isEmpty()) {
            throw new IllegalStateException(file + " is empty: delete it only with the data directory");
        }
        return password;
    }

    private static java.nio.file.attribute.FileAttribute<?>[] ownerOnly() {
        return java.nio.file.FileSystems.getDefault()
                        .supportedFileAttributeViews()
                        .contains("posix")
                ? new java.nio.file.attribute.FileAttribute<?>[] {
                    java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                            java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"))
                }
                : new java.nio.file.attribute.FileAttribute<?>[0];
    }

    private static void writeHba(Path directory) {
        try {
            Files.writeString(directory.resolve("pg_hba.conf"), HBA);
        } catch (IOException e) {
            throw new UncheckedIOException("Could not write " + directory.resolve("pg_hba.conf"), e);
        }
    }

    /**
     * A data directory from before the password (its rule: trust): the superuser gets the password and the rule
     * becomes the password's, reloaded at once; nothing of the data changes.
     */
    private static void takeOver(EmbeddedPostgres postgres, Path directory, String password) {
        try (java.sql.Connection connection = postgres.getPostgresDatabase().getConnection();
                java.sql.Statement statement = connection.createStatement()) {
            statement.execute("SET password_encryption = 'scram-sha-256'");
            statement.execute("ALTER ROLE " + SUPERUSER + " PASSWORD '" + password.replace("'", "''") + "'");
            writeHba(directory);
            statement.execute("SELECT pg_reload_conf()");
            log.info("The embedded PostgreSQL in {} now takes only the password of {}", directory, PASSWORD_FILE);
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException("Could not set the embedded PostgreSQL's password in " + directory, e);
        }
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
