package com.chatreview.database;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.micrometer.core.instrument.MeterRegistry;
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

    /**
     * The pool behind {@link OutageAwareDataSource}: one bean, so that everything (Flyway, JdbcClient, the
     * transaction manager, db-scheduler) shares the outage check; Hikari's metrics find the pool by unwrapping.
     */
    @Bean(destroyMethod = "close")
    OutageAwareDataSource dataSource(
            DatabaseSettings settings, EmbeddedDatabaseLifecycle embedded, DatabaseReachability reachability) {
        HikariConfig config = new HikariConfig();
        config.setPoolName("chat-review");
        config.setMaximumPoolSize(settings.poolSize());
        // connections are made when asked for, not kept up by a background task: that task backs off to 5 s
        // between tries while the database is down, and would hold a returned database's first requests that long
        config.setMinimumIdle(0);
        config.setConnectionTimeout(settings.connectionTimeout().toMillis());
        JdbcLocation location = location(settings, embedded);
        config.setJdbcUrl(location.jdbcUrl());
        config.setUsername(location.user());
        config.setPassword(location.password());
        return new OutageAwareDataSource(new HikariDataSource(config), reachability);
    }

    /** Named for the {@code db} health component, which readiness includes (docs/api.md, Conventions). */
    @Bean(destroyMethod = "close")
    DatabaseReachability dbHealthIndicator(
            DatabaseSettings settings, EmbeddedDatabaseLifecycle embedded, MeterRegistry meters) {
        JdbcLocation location = location(settings, embedded);
        return new DatabaseReachability(location.jdbcUrl(), location.user(), location.password(), meters);
    }

    private static JdbcLocation location(DatabaseSettings settings, EmbeddedDatabaseLifecycle embedded) {
        if (embedded.server() != null) {
            return new JdbcLocation(
                    embedded.server().jdbcUrl(),
                    embedded.server().user(),
                    embedded.server().password());
        }
        JdbcLocation location = JdbcLocation.parse(settings.url());
        return new JdbcLocation(
                location.jdbcUrl(),
                firstNonBlank(settings.user(), location.user()),
                firstNonBlank(settings.password(), location.password()));
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
