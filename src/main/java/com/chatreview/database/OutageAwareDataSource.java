package com.chatreview.database;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import javax.sql.DataSource;
import org.springframework.jdbc.datasource.DelegatingDataSource;

/**
 * The pool, refusing at once while the database is known to be unreachable: otherwise every request of an outage
 * would wait the pool's whole connection timeout before it could be answered 503, and hold its client that long.
 * A connection that cannot be had because the database failed marks it unreachable for everyone.
 */
final class OutageAwareDataSource extends DelegatingDataSource implements AutoCloseable {

    private final DatabaseReachability reachability;

    OutageAwareDataSource(DataSource pool, DatabaseReachability reachability) {
        super(pool);
        this.reachability = reachability;
    }

    @Override
    public Connection getConnection() throws SQLException {
        refuseDuringOutage();
        try {
            return super.getConnection();
        } catch (SQLException failure) {
            noteOutage(failure);
            throw failure;
        }
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        refuseDuringOutage();
        try {
            return super.getConnection(username, password);
        } catch (SQLException failure) {
            noteOutage(failure);
            throw failure;
        }
    }

    @Override
    public void close() {
        if (getTargetDataSource() instanceof AutoCloseable pool) {
            try {
                pool.close();
            } catch (Exception e) {
                throw new IllegalStateException("The connection pool did not close", e);
            }
        }
    }

    private void refuseDuringOutage() throws SQLTransientConnectionException {
        if (!reachability.reachable()) {
            throw new SQLTransientConnectionException("The database is unreachable", "08001");
        }
    }

    /**
     * Hikari's timeout carries the last connection attempt's failure as its cause when the database failed it;
     * without one the pool was only busy, which is load, not an outage.
     */
    private void noteOutage(SQLException failure) {
        if (failure.getCause() != null && DatabaseReachability.isOutage(failure.getCause())
                || DatabaseReachability.isOutage(failure) && !(failure instanceof SQLTransientConnectionException)) {
            reachability.failed(failure);
        }
    }
}
