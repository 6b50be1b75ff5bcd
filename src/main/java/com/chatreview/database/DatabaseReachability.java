package com.chatreview.database;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.ConnectException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.time.Instant;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.TransientDataAccessResourceException;

/**
 * Whether this node can reach its database now (docs/api.md, Conventions): asked every second over a connection of its
 * own, outside the pool (a busy pool is not an outage). While the database is unreachable the pool refuses at once
 * ({@link OutageAwareDataSource}) instead of making every request wait for a connection, so that REST answers 503
 * {@code SERVICE_UNAVAILABLE} with {@code Retry-After} and the WebSocket 1013 without delay; the {@code db} health
 * component is DOWN, and with it readiness, so that a load balancer sends the traffic elsewhere. Back by itself at the
 * first answered ping.
 */
public final class DatabaseReachability implements HealthIndicator, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(DatabaseReachability.class);

    /** How long a client should wait before asking again for what needs the database. */
    public static final Duration RETRY_AFTER = Duration.ofSeconds(2);

    private static final Duration PING_EVERY = Duration.ofSeconds(1);
    private static final int PING_TIMEOUT_SECONDS = 2;

    /**
     * PostgreSQL's connection exceptions (class 08) and its shutdown states: the server is going down (57P01,
     * 57P02) or not yet up (57P03).
     */
    private static final Set<String> SHUTDOWN_STATES = Set.of("57P01", "57P02", "57P03");

    private final String jdbcUrl;
    private final Properties credentials;
    private final ScheduledExecutorService pinger;
    private volatile boolean reachable = true;
    private volatile @Nullable Instant unreachableSince;
    private @Nullable Connection pingConnection;

    DatabaseReachability(String jdbcUrl, @Nullable String user, @Nullable String password, MeterRegistry meters) {
        this.jdbcUrl = jdbcUrl;
        this.credentials = new Properties();
        if (user != null) {
            credentials.setProperty("user", user);
        }
        if (password != null) {
            credentials.setProperty("password", password);
        }
        credentials.setProperty("connectTimeout", Integer.toString(PING_TIMEOUT_SECONDS));
        credentials.setProperty("socketTimeout", Integer.toString(PING_TIMEOUT_SECONDS));
        credentials.setProperty("ApplicationName", "chat-review health");
        Gauge.builder("database.reachable", this, self -> self.reachable ? 1 : 0)
                .description("1 while this node reaches its database, 0 during an outage")
                .register(meters);
        this.pinger = Executors.newSingleThreadScheduledExecutor(
                Thread.ofVirtual().name("database-pinger").factory());
        pinger.scheduleWithFixedDelay(this::ping, PING_EVERY.toMillis(), PING_EVERY.toMillis(), TimeUnit.MILLISECONDS);
    }

    public boolean reachable() {
        return reachable;
    }

    /**
     * What to tell a client whose request failed with an outage ({@link #isOutage}): that the database cannot be
     * reached, or, when the pool gave no connection in time although its last attempt to connect did not fail, that
     * the service is too busy. Both are 503 with the same Retry-After; only the second is the node's load.
     */
    public static String whyUnavailable(Throwable failure) {
        return poolExhausted(failure)
                ? "The service has no free database connection right now: it is busier than it can answer"
                : "The service cannot reach its database right now";
    }

    /**
     * The pool's timeout with no connection failure as its cause: every connection was in use for the whole wait
     * ({@code DATABASE_CONNECTION_TIMEOUT}). HikariCP makes its last failure to connect the cause when there was one.
     */
    static boolean poolExhausted(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof SQLTransientConnectionException timeout
                    && timeout.getCause() == null
                    && timeout.getMessage() != null
                    && timeout.getMessage().contains("Connection is not available")) {
                return true;
            }
        }
        return false;
    }

    /** Whether the failure says the database cannot be reached (rather than that a statement was wrong). */
    public static boolean isOutage(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof DataAccessResourceFailureException
                    || cause instanceof TransientDataAccessResourceException
                    || cause instanceof SQLTransientConnectionException
                    || cause instanceof SQLRecoverableException
                    || cause instanceof ConnectException) {
                return true;
            }
            if (cause instanceof SQLException sql
                    && sql.getSQLState() != null
                    && (sql.getSQLState().startsWith("08") || SHUTDOWN_STATES.contains(sql.getSQLState()))) {
                return true;
            }
        }
        return false;
    }

    /** The ping failed: the database counts as unreachable until a ping is answered. */
    private void failed(Throwable failure) {
        if (reachable) {
            reachable = false;
            unreachableSince = Instant.now();
            log.warn(
                    "The database is unreachable ({}): requests that need it are answered 503 SERVICE_UNAVAILABLE,"
                            + " new WebSocket connections 1013, and readiness is DOWN until it answers again",
                    failure.toString());
        }
    }

    void ping() {
        try {
            if (pingConnection == null || pingConnection.isClosed()) {
                pingConnection = DriverManager.getConnection(jdbcUrl, credentials);
            }
            if (!pingConnection.isValid(PING_TIMEOUT_SECONDS)) {
                throw new SQLTransientConnectionException(
                        "The database did not answer within " + PING_TIMEOUT_SECONDS + " s");
            }
            if (!reachable) {
                reachable = true;
                log.info(
                        "The database answers again after {}: the node serves again",
                        Duration.between(unreachableSince, Instant.now()));
            }
        } catch (SQLException | RuntimeException failure) {
            closePingConnection();
            failed(failure);
        }
    }

    private void closePingConnection() {
        if (pingConnection != null) {
            try {
                pingConnection.close();
            } catch (SQLException e) {
                log.debug("Closing the health connection failed", e);
            }
            pingConnection = null;
        }
    }

    @Override
    public Health health() {
        return reachable ? Health.up().build() : Health.down().build();
    }

    @Override
    public void close() {
        pinger.shutdownNow();
        try {
            pinger.awaitTermination(PING_TIMEOUT_SECONDS + 1, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        closePingConnection();
    }
}
