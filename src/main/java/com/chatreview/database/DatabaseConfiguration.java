package com.chatreview.database;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.net.URI;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** One connection pool, to the PostgreSQL server of {@code DATABASE_URL} or to the embedded one. */
@Configuration(proxyBeanMethods = false)
class DatabaseConfiguration {

    @Bean(destroyMethod = "close")
    EmbeddedDatabaseLifecycle embeddedDatabase(DatabaseSettings settings) {
        return settings.embedded()
                ? new EmbeddedDatabaseLifecycle(EmbeddedPostgresServer.start(settings.dataDir()))
                : new EmbeddedDatabaseLifecycle(null);
    }

    @Bean(destroyMethod = "close")
    HikariDataSource dataSource(DatabaseSettings settings, EmbeddedDatabaseLifecycle embedded) {
        HikariConfig config = new HikariConfig();
        config.setPoolName("chat-review");
        config.setMaximumPoolSize(settings.poolSize());
        config.setConnectionTimeout(5_000);
        if (embedded.server() != null) {
            config.setJdbcUrl(embedded.server().jdbcUrl());
        } else {
            JdbcLocation location = JdbcLocation.parse(settings.url());
            config.setJdbcUrl(location.jdbcUrl());
            config.setUsername(firstNonBlank(settings.user(), location.user()));
            config.setPassword(firstNonBlank(settings.password(), location.password()));
        }
        return new HikariDataSource(config);
    }

    private static String firstNonBlank(String first, String second) {
        return first != null && !first.isBlank() ? first : second;
    }

    /** Holds the embedded server, if any, so that it stops after the pool that uses it. */
    record EmbeddedDatabaseLifecycle(EmbeddedPostgresServer server) implements AutoCloseable {
        @Override
        public void close() throws Exception {
            if (server != null) {
                server.close();
            }
        }
    }

    /** A JDBC URL, or the {@code postgres://user:password@host:port/db} form many platforms hand out. */
    record JdbcLocation(String jdbcUrl, String user, String password) {

        static JdbcLocation parse(String url) {
            if (url.startsWith("jdbc:postgresql:")) {
                return new JdbcLocation(url, null, null);
            }
            if (url.startsWith("postgres://") || url.startsWith("postgresql://")) {
                URI uri = URI.create(url);
                String user = null;
                String password = null;
                if (uri.getRawUserInfo() != null) {
                    String[] parts = uri.getUserInfo().split(":", 2);
                    user = parts[0];
                    password = parts.length > 1 ? parts[1] : null;
                }
                String port = uri.getPort() > 0 ? ":" + uri.getPort() : "";
                String query = uri.getRawQuery() != null ? "?" + uri.getRawQuery() : "";
                return new JdbcLocation(
                        "jdbc:postgresql://" + uri.getHost() + port + uri.getRawPath() + query, user, password);
            }
            throw new IllegalArgumentException("DATABASE_URL must be a PostgreSQL JDBC URL"
                    + " (jdbc:postgresql://host:5432/db) or postgres://user:password@host:5432/db, not " + url);
        }
    }
}
