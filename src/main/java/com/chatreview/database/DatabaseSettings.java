package com.chatreview.database;

import java.nio.file.Path;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Where the service keeps its data.
 *
 * @param url JDBC URL of a PostgreSQL server ({@code DATABASE_URL}); {@code postgres://user:pass@host/db} is
 *     accepted too. Blank: the embedded PostgreSQL under {@code dataDir}.
 * @param user database user ({@code DATABASE_USER}), when not part of the URL
 * @param password database password ({@code DATABASE_PASSWORD}), when not part of the URL
 * @param dataDir the service's own data directory ({@code DATA_DIR}); the embedded database lives in its
 *     {@code postgres} folder
 * @param poolSize connections the service holds open to the database
 * @param connectionTimeout how long a request waits for a pooled connection before it is answered 503
 *     ({@code DATABASE_CONNECTION_TIMEOUT}); an outage found meanwhile is answered at once
 */
@ConfigurationProperties("database")
public record DatabaseSettings(
        @Nullable String url,
        @Nullable String user,
        @Nullable String password,
        @DefaultValue("./data") Path dataDir,
        @DefaultValue("10") int poolSize,
        @DefaultValue("3s") Duration connectionTimeout) {

    /** Whether the service starts its own PostgreSQL rather than connecting to a server. */
    public boolean embedded() {
        return url == null || url.isBlank();
    }
}
