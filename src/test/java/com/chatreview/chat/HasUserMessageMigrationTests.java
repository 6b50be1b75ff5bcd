package com.chatreview.chat;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.support.RequiresDatabase;
import com.chatreview.support.TestDatabase;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * Chats stored before a chat knew whether a user wrote in it (V55) learn it from their messages: a chat a user wrote
 * in keeps the title its first user message gave it, and one only the assistant wrote in is still titled by its first
 * user message.
 */
@ExtendWith(RequiresDatabase.class)
class HasUserMessageMigrationTests {

    @Test
    void aChatAUserWroteInKeepsItsTitleAndOneWithoutIsTitledByItsFirstUserMessage() throws Exception {
        try (TestDatabase.ServerDatabase database = TestDatabase.createServerDatabase("crs_has_user_message")) {
            DriverManagerDataSource source =
                    new DriverManagerDataSource(database.url(), TestDatabase.user(), TestDatabase.password());
            Flyway.configure().dataSource(source).target("54").load().migrate();
            JdbcClient jdbc = JdbcClient.create(source);
            UUID tenant = UUID.randomUUID();
            jdbc.sql("INSERT INTO tenants (id, name, created_at) VALUES (:id, 'school', now())")
                    .param("id", tenant)
                    .update();
            jdbc.sql("INSERT INTO users (tenant_id, user_id, created_at) VALUES (:tenant, 'student', now())")
                    .param("tenant", tenant)
                    .update();
            ChatId written = chat(jdbc, tenant, "Fractions, please");
            message(jdbc, written, 1, "assistant", "Hello!");
            message(jdbc, written, 2, "user", "Fractions, please");
            ChatId greeted = chat(jdbc, tenant, "New chat");
            message(jdbc, greeted, 1, "assistant", "Hello!");
            ChatId empty = chat(jdbc, tenant, "New chat");

            Flyway.configure().dataSource(source).load().migrate();

            Map<ChatId, Boolean> wrote = Map.of(
                    written, hasUserMessage(jdbc, written),
                    greeted, hasUserMessage(jdbc, greeted),
                    empty, hasUserMessage(jdbc, empty));
            assertThat(wrote)
                    .containsEntry(written, true)
                    .containsEntry(greeted, false)
                    .containsEntry(empty, false);

            Messages messages = new Messages(jdbc);
            for (ChatId chat : new ChatId[] {written, greeted}) {
                messages.append(
                                tenant,
                                chat,
                                UUID.randomUUID(),
                                NewMessage.fromUser("Decimals now", Map.of(), null),
                                "{}",
                                Titles.fromMessage("Decimals now"),
                                Instant.now())
                        .orElseThrow();
            }
            assertThat(title(jdbc, written)).isEqualTo("Fractions, please");
            assertThat(title(jdbc, greeted)).isEqualTo("Decimals now");
        }
    }

    private static ChatId chat(JdbcClient jdbc, UUID tenant, String title) {
        ChatId id = ChatId.random();
        jdbc.sql("""
                        INSERT INTO chats (id, tenant_id, user_id, title, title_given, config, status, created_at,
                                           updated_at)
                        VALUES (:id, :tenant, 'student', :title, false, '{}', 'active', now(), now())""")
                .param("id", id.value())
                .param("tenant", tenant)
                .param("title", title)
                .update();
        return id;
    }

    private static void message(JdbcClient jdbc, ChatId chat, int position, String role, String content) {
        jdbc.sql("""
                        INSERT INTO messages (chat_id, position, id, sender_role, content, metadata, created_at)
                        VALUES (:chat, :position, :id, :role, :content, '{}', now())""")
                .param("chat", chat.value())
                .param("position", position)
                .param("id", UUID.randomUUID())
                .param("role", role)
                .param("content", content)
                .update();
        jdbc.sql("UPDATE chats SET message_count = :position WHERE id = :chat")
                .param("position", position)
                .param("chat", chat.value())
                .update();
    }

    private static boolean hasUserMessage(JdbcClient jdbc, ChatId chat) {
        return jdbc.sql("SELECT has_user_message FROM chats WHERE id = :id")
                .param("id", chat.value())
                .query(Boolean.class)
                .single();
    }

    private static String title(JdbcClient jdbc, ChatId chat) {
        return jdbc.sql("SELECT title FROM chats WHERE id = :id")
                .param("id", chat.value())
                .query(String.class)
                .single();
    }
}
