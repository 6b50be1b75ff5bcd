package com.chatreview.database;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One running service per data directory: a second start refuses, rather than stop the first one's PostgreSQL. */
@Tag("process")
class EmbeddedPostgresServerTests {

    @TempDir
    Path dataDir;

    @Test
    void aSecondServiceOnTheSameDataDirectoryIsRefusedAndTheFirstKeepsItsDatabase() throws Exception {
        try (EmbeddedPostgresServer first = EmbeddedPostgresServer.start(dataDir)) {
            assertThatThrownBy(() -> EmbeddedPostgresServer.start(dataDir))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("Another running service uses the data directory")
                    .hasMessageContaining("DATA_DIR");

            try (Connection connection = DriverManager.getConnection(first.jdbcUrl(), first.user(), first.password())) {
                assertThat(connection.isValid(2))
                        .as("the first one's database still runs")
                        .isTrue();
            }
        }

        try (EmbeddedPostgresServer again = EmbeddedPostgresServer.start(dataDir)) {
            assertThat(again.jdbcUrl())
                    .as("free again once the first has stopped")
                    .isNotBlank();
        }
    }
}
