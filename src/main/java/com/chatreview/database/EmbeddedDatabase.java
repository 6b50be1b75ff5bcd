package com.chatreview.database;

import org.jspecify.annotations.Nullable;

/**
 * The embedded PostgreSQL server when {@code DATABASE_URL} is blank, and none otherwise: a bean of its own, so that
 * the server stops after the pool that uses it.
 */
record EmbeddedDatabase(@Nullable EmbeddedPostgresServer server) implements AutoCloseable {

    static EmbeddedDatabase start(DatabaseSettings settings) {
        return settings.embedded()
                ? new EmbeddedDatabase(EmbeddedPostgresServer.start(settings.dataDir()))
                : new EmbeddedDatabase(null);
    }

    @Override
    public void close() throws Exception {
        if (server != null) {
            server.close();
        }
    }
}
