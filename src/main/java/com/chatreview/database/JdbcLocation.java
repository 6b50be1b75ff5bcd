package com.chatreview.database;

import java.net.URI;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/** Where the service connects: a JDBC URL, and the user and password when they are not part of it. */
record JdbcLocation(
        String jdbcUrl, @Nullable String user, @Nullable String password) {

    /**
     * The embedded server's location, or {@code DATABASE_URL}'s, with {@code DATABASE_USER} and
     * {@code DATABASE_PASSWORD} taking the place of the URL's own when they are set.
     */
    static JdbcLocation of(DatabaseSettings settings, EmbeddedDatabase embedded) {
        if (embedded.server() != null) {
            return new JdbcLocation(
                    embedded.server().jdbcUrl(),
                    embedded.server().user(),
                    embedded.server().password());
        }
        JdbcLocation location =
                parse(Objects.requireNonNull(settings.url(), "DATABASE_URL, the database is not embedded"));
        return new JdbcLocation(
                location.jdbcUrl(),
                firstNonBlank(settings.user(), location.user()),
                firstNonBlank(settings.password(), location.password()));
    }

    /** A JDBC URL, or the {@code postgres://user:password@host:port/db} form many platforms hand out. */
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

    private static @Nullable String firstNonBlank(@Nullable String first, @Nullable String second) {
        return first != null && !first.isBlank() ? first : second;
    }
}
