package com.chatreview.chat.json;

import com.chatreview.chat.ChatManagement;
import com.chatreview.chat.json.ChatBodies.ChatBody;
import com.chatreview.chat.json.ChatBodies.MessageBody;
import com.chatreview.privacy.UserDataExporter;
import com.chatreview.tenancy.TenantId;
import java.util.Set;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import tools.jackson.core.JsonGenerator;

/**
 * The chat module's sections of a user's data export: {@code user} (when the tenant first saw them) and
 * {@code chats} (each chat as {@code GET /api/v1/chats/{chat_id}} shows it, with all its messages as the message list
 * shows them, oldest first).
 */
@Configuration(proxyBeanMethods = false)
class ChatDataExporters {

    @Bean
    @Order(1)
    UserDataExporter userSection(ChatManagement chats) {
        return new UserDataExporter() {
            @Override
            public String section() {
                return "user";
            }

            @Override
            public Set<String> tables() {
                return Set.of("users");
            }

            @Override
            public boolean holdsDataOf(TenantId tenantId, String userId) {
                return chats.userFirstSeen(tenantId, userId).isPresent();
            }

            @Override
            public void export(TenantId tenantId, String userId, JsonGenerator json) {
                json.writeStartObject();
                json.writeName("first_seen_at");
                chats.userFirstSeen(tenantId, userId).ifPresentOrElse(json::writePOJO, json::writeNull);
                json.writeEndObject();
            }
        };
    }

    @Bean
    @Order(2)
    UserDataExporter chatsSection(ChatManagement chats) {
        return new UserDataExporter() {
            @Override
            public String section() {
                return "chats";
            }

            @Override
            public Set<String> tables() {
                return Set.of("chats", "messages");
            }

            @Override
            public boolean holdsDataOf(TenantId tenantId, String userId) {
                return chats.userFirstSeen(tenantId, userId).isPresent();
            }

            @Override
            public void export(TenantId tenantId, String userId, JsonGenerator json) {
                json.writeStartArray();
                chats.forEachChatOf(tenantId, userId, chat -> {
                    json.writeStartObject();
                    json.writeName("chat");
                    json.writePOJO(ChatBody.full(chat));
                    json.writeName("messages");
                    json.writeStartArray();
                    chats.forEachMessage(chat.id(), message -> json.writePOJO(MessageBody.of(message)));
                    json.writeEndArray();
                    json.writeEndObject();
                    json.flush();
                });
                json.writeEndArray();
            }
        };
    }
}
