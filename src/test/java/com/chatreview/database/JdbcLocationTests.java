package com.chatreview.database;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class JdbcLocationTests {

    @Test
    void takesAJdbcUrlAsItIs() {
        assertThat(JdbcLocation.parse("jdbc:postgresql://db:5432/app?ssl=true"))
                .isEqualTo(new JdbcLocation("jdbc:postgresql://db:5432/app?ssl=true", null, null));
    }

    @Test
    void readsThePlatformForm() {
        assertThat(JdbcLocation.parse("postgres://app:s3cret@db.internal:6543/chat?sslmode=require"))
                .isEqualTo(
                        new JdbcLocation("jdbc:postgresql://db.internal:6543/chat?sslmode=require", "app", "s3cret"));
        assertThat(JdbcLocation.parse("postgresql://db/chat"))
                .isEqualTo(new JdbcLocation("jdbc:postgresql://db/chat", null, null));
    }

    @Test
    void refusesOtherDatabases() {
        assertThatThrownBy(() -> JdbcLocation.parse("jdbc:mysql://db/app")).hasMessageContaining("PostgreSQL");
    }
}
