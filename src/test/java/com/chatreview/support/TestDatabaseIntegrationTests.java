package com.chatreview.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The service under test runs on the database the run chose ({@link TestDatabase}), not on one its defaults pick:
 * the web server's filters pull in the DataSource before the context's beans are made, so properties that come
 * late (a registrar bean's) once left every "server" run on the embedded PostgreSQL under ./data.
 */
@SingleNodeToo
@IntegrationTest
class TestDatabaseIntegrationTests {

    @Autowired
    DataSource dataSource;

    @Test
    void theServiceRunsOnTheDatabaseTheRunChose() {
        JdbcClient jdbc = JdbcClient.create(dataSource);
        String dataDirectory =
                jdbc.sql("SHOW data_directory").query(String.class).single();
        String database =
                jdbc.sql("SELECT current_database()").query(String.class).single();

        assertThat(Path.of(dataDirectory).toAbsolutePath())
                .as("the working directory's ./data is the service's default, never a test's")
                .isNotEqualTo(Path.of("data", "postgres").toAbsolutePath());
        if (TestDatabase.embedded()) {
            assertThat(dataDirectory).startsWith(System.getProperty("java.io.tmpdir"));
        } else {
            assertThat(TestDatabase.serverDatabaseUrl().orElseThrow()).endsWith("/" + database);
        }
    }
}
