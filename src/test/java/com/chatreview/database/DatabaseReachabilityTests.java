package com.chatreview.database;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ConnectException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import org.junit.jupiter.api.Test;
import org.postgresql.util.PSQLException;
import org.postgresql.util.PSQLState;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.BadSqlGrammarException;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.jdbc.UncategorizedSQLException;
import org.springframework.transaction.CannotCreateTransactionException;

/** What counts as the database being unreachable (503), and what is a failure of the request or the service. */
class DatabaseReachabilityTests {

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
