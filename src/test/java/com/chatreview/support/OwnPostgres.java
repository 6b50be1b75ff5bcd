package com.chatreview.support;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import org.springframework.util.FileSystemUtils;

/**
 * A PostgreSQL server that a test owns and may stop and start again: its own cluster ({@code initdb}) on a free
 * port, run with {@code pg_ctl}, never the machine's shared server. The binaries are the embedded default's
 * (zonky's PostgreSQL 18 for this platform): the machine's own {@code initdb} refuses to run as root, and this
 * one runs everywhere the suite runs.
 */
public final class OwnPostgres implements AutoCloseable {

    private final Path dataDir;
    private final int port;
    private EmbeddedPostgres running;

    private OwnPostgres(Path dataDir, int port) {
        this.dataDir = dataDir;
        this.port = port;
    }

    public static OwnPostgres start(String name) throws IOException {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        OwnPostgres postgres = new OwnPostgres(Files.createTempDirectory("crs-pg-" + name), port);
        postgres.startAgain();
        return postgres;
    }

    public String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/postgres";
    }

    public String user() {
        return "postgres";
    }

    /** A connection of the test's own, in autocommit. */
    public Connection connect() throws SQLException {
        return DriverManager.getConnection(jdbcUrl(), user(), "");
    }

    /** Stops the server as an operator does ({@code pg_ctl stop -m fast}): its sessions are ended at once. */
    public void stop() throws IOException {
        if (running != null) {
            running.close();
            running = null;
        }
    }

    /** Starts the server again on the same port, on the same data. */
    public void startAgain() throws IOException {
        running = EmbeddedPostgres.builder()
                .setDataDirectory(dataDir)
                .setCleanDataDirectory(false)
                .setPort(port)
                .setRegisterShutdownHook(true)
                .setPGStartupWait(Duration.ofSeconds(60))
                .setServerConfig("max_connections", "100")
                .start();
    }

    @Override
    public void close() throws IOException {
        stop();
        FileSystemUtils.deleteRecursively(dataDir);
    }
}
