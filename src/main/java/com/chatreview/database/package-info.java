/**
 * Where the data lives: a PostgreSQL server named by {@code DATABASE_URL}, or, when none is named, a real
 * PostgreSQL that the service starts itself under {@code DATA_DIR}.
 */
@org.jspecify.annotations.NullMarked
@org.springframework.modulith.ApplicationModule(displayName = "Database")
package com.chatreview.database;
