package com.chatreview.support;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;

/**
 * The database the integration tests run on, chosen by the system property {@code test.database}:
 * {@code server} (default) is a PostgreSQL server ({@code DATABASE_URL}, or 127.0.0.1:5432 database
 * {@code test}), in which each test JVM gets a database of its own, dropped when it ends; {@code embedded} is
 * the PostgreSQL the service starts itself, in a fresh temporary {@code DATA_DIR}.
 */
public final class TestDatabase {

    private static final String DEFAULT_SERVER = "jdbc:postgresql://127.0.0.1:5432/test";
    private static final String USER = System.getenv().getOrDefault("DATABASE_USER", "postgres");
    private static final String PASSWORD = System.getenv().getOrDefault("DATABASE_PASSWORD", "");

    private static volatile String databaseUrl;
    private static volatile String unavailableReason;

    private TestDatabase() {}

    public static boolean embedded() {
        return "embedded".equals(System.getProperty("test.database", "server"));
    }

    /** Whether the tests must fail rather than skip when a server is missing. */
    public static boolean mandatory() {
        return "true".equalsIgnoreCase(System.getenv("CI"));
    }

    /** The JDBC URL of this JVM's own test database on the server, created on first use. */
    public static synchronized Optional<String> serverDatabaseUrl() {
        if (databaseUrl != null) {
            return Optional.of(databaseUrl);
        }
        if (unavailableReason != null) {
            return Optional.empty();
        }
        ServerDatabase database;
        try {
            database = createServerDatabase("crs_it");
        } catch (SQLException e) {
            unavailableReason = "No PostgreSQL server at " + serverUrl() + " (" + e.getMessage() + ")";
            return Optional.empty();
        }
        Runtime.getRuntime().addShutdownHook(new Thread(database::close));
        databaseUrl = database.url();
        return Optional.of(databaseUrl);
    }

    /**
     * A new, empty database on the PostgreSQL server, named {@code <prefix>_<pid>_<millis>}, for services this JVM
     * starts in processes of their own; closing it drops it, whoever is still connected.
     */
    public static ServerDatabase createServerDatabase(String prefix) throws SQLException {
        String server = serverUrl();
        String name = prefix + "_" + ProcessHandle.current().pid() + "_" + System.currentTimeMillis();
        try (Connection connection = DriverManager.getConnection(server, USER, PASSWORD);
                Statement statement = connection.createStatement()) {
            statement.execute("CREATE DATABASE " + name);
        }
        return new ServerDatabase(server.substring(0, server.lastIndexOf('/') + 1) + name, name);
    }

    /** Why the PostgreSQL server cannot be reached; empty when it answers. */
    public static Optional<String> serverUnreachable() {
        try (Connection connection = DriverManager.getConnection(serverUrl(), USER, PASSWORD)) {
            return Optional.empty();
        } catch (SQLException e) {
            return Optional.of("none answers at " + serverUrl() + ": " + e.getMessage());
        }
    }

    /** A database of its own on the server: its JDBC URL (credentials: {@link #user()}, {@link #password()}). */
    public record ServerDatabase(String url, String name) implements AutoCloseable {
        @Override
        public void close() {
            drop(serverUrl(), name);
        }
    }

    public static String unavailableReason() {
        return unavailableReason;
    }

    public static String user() {
        return USER;
    }

    public static String password() {
        return PASSWORD;
    }

    private static String serverUrl() {
        String configured = System.getenv("DATABASE_URL");
        if (configured == null || configured.isBlank()) {
            return DEFAULT_SERVER;
        }
        return configured.startsWith("postgres")
                ? "jdbc:" + configured.replaceFirst("^postgres(ql)?://", "postgresql://")
                : configured;
    }

    private static void drop(String server, String name) {
        try (Connection connection = DriverManager.getConnection(server, USER, PASSWORD);
                Statement statement = connection.createStatement()) {
            statement.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
        } catch (SQLException ignored) {
            // the server went away first; nothing is left to clean
        }
    }
}
