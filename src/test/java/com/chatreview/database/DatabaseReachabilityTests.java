package com.chatreview.database;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.chatreview.support.RequiresDatabase;
import com.chatreview.support.TestDatabase;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.io.IOException;
import java.net.ConnectException;
import java.net.ServerSocket;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.postgresql.util.PSQLException;
import org.postgresql.util.PSQLState;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.BadSqlGrammarException;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.jdbc.UncategorizedSQLException;
import org.springframework.transaction.CannotCreateTransactionException;

/** What counts as the database being unreachable (503), and what is a failure of the request or the service. */
@ExtendWith(RequiresDatabase.class)
class DatabaseReachabilityTests {

    /**
     * The pool's own failures, from HikariCP itself (its message and its cause are what tell the two apart): every
     * connection in use for the whole wait is the node being busy, not the database being away.
     */
    @Test
    void aPoolWithEveryConnectionInUseIsBusyNotUnreachable() throws SQLException {
        try (HikariDataSource pool = pool(TestDatabase.serverDatabaseUrl().orElseThrow());
                Connection held = pool.getConnection()) {
            assertThat(held.isValid(1)).isTrue();
            SQLException timedOut = catchThrowableOfType(SQLException.class, pool::getConnection);
            assertThat(DatabaseReachability.isOutage(timedOut)).isTrue();
            assertThat(DatabaseReachability.whyUnavailable(new CannotGetJdbcConnectionException("none", timedOut)))
                    .as("the detail of the 503")
                    .startsWith("The service has no free database connection right now");
        }
    }

    @Test
    void aPoolThatCannotConnectIsUnreachable() throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        try (HikariDataSource pool = pool("jdbc:postgresql://127.0.0.1:" + closedPort + "/none")) {
            SQLException timedOut = catchThrowableOfType(SQLException.class, pool::getConnection);
            assertThat(DatabaseReachability.isOutage(timedOut)).isTrue();
            assertThat(DatabaseReachability.whyUnavailable(timedOut))
                    .isEqualTo("The service cannot reach its database right now");
        }
    }

    private static HikariDataSource pool(String url) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        config.setUsername(TestDatabase.user());
        config.setPassword(TestDatabase.password());
        config.setMaximumPoolSize(1);
        config.setConnectionTimeout(250);
        // the pool starts without connecting, as the service's does when the database is away at start-up
        config.setInitializationFailTimeout(-1);
        return new HikariDataSource(config);
    }

    @Test
    void failuresToReachTheDatabaseAreAnOutageHoweverTheyAreWrapped() {
        SQLException refused = new PSQLException("Connection refused", PSQLState.CONNECTION_UNABLE_TO_CONNECT);
        assertThat(DatabaseReachability.isOutage(new CannotGetJdbcConnectionException("no connection", refused)))
                .isTrue();
        assertThat(DatabaseReachability.isOutage(new CannotCreateTransactionException(
                        "could not begin", new SQLTransientConnectionException("The database is unreachable"))))
                .isTrue();
        assertThat(DatabaseReachability.isOutage(new UncategorizedSQLException(
                        "insert", "INSERT", new SQLException("terminating connection", "57P01"))))
                .as("the server shutting down under a statement")
                .isTrue();
        assertThat(DatabaseReachability.isOutage(new UncategorizedSQLException(
                        "select", "SELECT", new SQLException("the database system is starting up", "57P03"))))
                .isTrue();
        assertThat(DatabaseReachability.isOutage(new UncategorizedSQLException(
                        "select", "SELECT", new PSQLException("I/O error", PSQLState.CONNECTION_FAILURE))))
                .isTrue();
        assertThat(DatabaseReachability.isOutage(new IllegalStateException(new ConnectException("refused"))))
                .isTrue();
    }

    @Test
    void aStatementTheDatabaseRefusedIsNotAnOutage() {
        assertThat(DatabaseReachability.isOutage(new DuplicateKeyException("duplicate")))
                .isFalse();
        assertThat(DatabaseReachability.isOutage(
                        new BadSqlGrammarException("select", "SELEC", new SQLException("syntax", "42601"))))
                .isFalse();
        assertThat(DatabaseReachability.isOutage(
                        new DataIntegrityViolationException("nul", new SQLException("invalid byte sequence", "22021"))))
                .isFalse();
        assertThat(DatabaseReachability.isOutage(new IllegalStateException("a bug")))
                .isFalse();
    }
}
