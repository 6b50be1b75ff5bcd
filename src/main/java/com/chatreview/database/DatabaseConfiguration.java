package com.chatreview.database;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** One connection pool, to the PostgreSQL server of {@code DATABASE_URL} or to the embedded one. */
@Configuration(proxyBeanMethods = false)
class DatabaseConfiguration {

    @Bean(destroyMethod = "close")
    EmbeddedDatabase embeddedDatabase(DatabaseSettings settings) {
        return EmbeddedDatabase.start(settings);
    }

    /**
     * The pool behind {@link OutageAwareDataSource}: one bean, so that everything (Flyway, JdbcClient, the
     * transaction manager, db-scheduler) shares the outage check; Hikari's metrics find the pool by unwrapping.
     */
    @Bean(destroyMethod = "close")
    OutageAwareDataSource dataSource(
            DatabaseSettings settings, EmbeddedDatabase embedded, DatabaseReachability reachability) {
        HikariConfig config = new HikariConfig();
        config.setPoolName("chat-review");
        config.setMaximumPoolSize(settings.poolSize());
        // connections are made when asked for, not kept up by a background task: that task backs off to 5 s
        // between tries while the database is down, and would hold a returned database's first requests that long
        config.setMinimumIdle(0);
        config.setConnectionTimeout(settings.connectionTimeout().toMillis());
        JdbcLocation location = JdbcLocation.of(settings, embedded);
        config.setJdbcUrl(location.jdbcUrl());
        config.setUsername(location.user());
        config.setPassword(location.password());
        return new OutageAwareDataSource(new HikariDataSource(config), reachability);
    }

    /** Named for the {@code db} health component, which readiness includes (docs/api.md, Conventions). */
    @Bean(destroyMethod = "close")
    DatabaseReachability dbHealthIndicator(DatabaseSettings settings, EmbeddedDatabase embedded, MeterRegistry meters) {
        JdbcLocation location = JdbcLocation.of(settings, embedded);
        return new DatabaseReachability(location.jdbcUrl(), location.user(), location.password(), meters);
    }

    @Bean
    PatientWrites patientWrites(DatabaseReachability reachability, MeterRegistry meters) {
        return new PatientWrites(reachability::reachable, meters);
    }
}
