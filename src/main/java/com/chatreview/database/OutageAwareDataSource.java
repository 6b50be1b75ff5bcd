package com.chatreview.database;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import javax.sql.DataSource;
import org.springframework.jdbc.datasource.DelegatingDataSource;

/**
 * The pool, refusing at once while the database is known to be unreachable: otherwise every request of an outage
 * would wait the pool's whole connection timeout before it could be answered 503, and hold its client that long.
 * Only {@link DatabaseReachability}'s own ping says whether it is: a pool's timeout names the last connection
 * failure, which may be older than the database's return, and the node would flip back to refusing after it.
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
        return super.getConnection();
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        refuseDuringOutage();
        return super.getConnection(username, password);
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
}
