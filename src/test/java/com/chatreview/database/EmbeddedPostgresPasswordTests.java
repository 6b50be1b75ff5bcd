package com.chatreview.database;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded PostgreSQL takes no login without its password (issue 29, item 3): made at the first start, kept
 * 0600 under DATA_DIR, by SCRAM on loopback only; a data directory from before is taken over with its data.
 */
@Tag("process")
class EmbeddedPostgresPasswordTests {

    @TempDir
    Path dataDir;

    @Test
    void aFreshDataDirectoryTakesOnlyThePassword() throws Exception {
        try (EmbeddedPostgresServer server = EmbeddedPostgresServer.start(dataDir)) {
            Path file = dataDir.resolve(EmbeddedPostgresServer.PASSWORD_FILE);
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
                    .isEqualTo("rw-------");
            assertThat(Files.readString(file).strip())
                    .isEqualTo(server.password())
                    .hasSizeGreaterThanOrEqualTo(43);

            assertRefusedWithout(server);
            try (Connection connection = DriverManager.getConnection(server.jdbcUrl(), "postgres", server.password());
                    Statement statement = connection.createStatement()) {
                var listen = statement.executeQuery("SHOW listen_addresses");
                listen.next();
                assertThat(listen.getString(1)).isEqualTo("127.0.0.1");
            }
        }
        try (EmbeddedPostgresServer again = EmbeddedPostgresServer.start(dataDir)) {
            assertRefusedWithout(again);
            DriverManager.getConnection(again.jdbcUrl(), "postgres", again.password())
                    .close();
        }
    }

    @Test
    void aDataDirectoryFromBeforeThePasswordIsTakenOverWithItsData() throws Exception {
        Path directory = dataDir.resolve("postgres");
        try (EmbeddedPostgres before = EmbeddedPostgres.builder()
                        .setDataDirectory(directory)
                        .setCleanDataDirectory(false)
                        .setRegisterShutdownHook(false)
                        .setPGStartupWait(Duration.ofSeconds(60))
                        .start();
                Connection connection = before.getPostgresDatabase().getConnection();
                Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE kept (note text)");
            statement.execute("INSERT INTO kept VALUES ('written before the password')");
        }

        try (EmbeddedPostgresServer server = EmbeddedPostgresServer.start(dataDir)) {
            assertRefusedWithout(server);
            try (Connection connection = DriverManager.getConnection(server.jdbcUrl(), "postgres", server.password());
                    Statement statement = connection.createStatement()) {
                var kept = statement.executeQuery("SELECT note FROM kept");
                kept.next();
                assertThat(kept.getString(1)).isEqualTo("written before the password");
            }
        }
        try (EmbeddedPostgresServer again = EmbeddedPostgresServer.start(dataDir)) {
            assertRefusedWithout(again);
        }
    }

    private static void assertRefusedWithout(EmbeddedPostgresServer server) {
        assertThatThrownBy(() -> DriverManager.getConnection(server.jdbcUrl(), "postgres", "")
                        .close())
                .isInstanceOf(SQLException.class);
        assertThatThrownBy(() -> DriverManager.getConnection(server.jdbcUrl(), "postgres", "wrong")
                        .close())
                .isInstanceOf(SQLException.class)
                .hasMessageContaining("password authentication failed");
    }
}
