package com.chatreview.chat;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.database.Sql;
import com.chatreview.support.Api;
import com.chatreview.support.Api.Reply;
import com.chatreview.support.IntegrationTest;
import com.chatreview.support.SharedTestConfiguration.HeldChats;
import com.chatreview.support.SingleNodeToo;
import com.chatreview.support.TestService;
import com.chatreview.support.TestTenant;
import com.chatreview.tenancy.TenantId;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;

/** Endpoints 1–5 and PATCH over HTTP, as a tenant's backend sees them. */
@SingleNodeToo
@IntegrationTest
class ChatApiIntegrationTests {

    static final Pattern TIMESTAMP = Pattern.compile("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z");
    static final Pattern UUID_TEXT = Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

    TestService service;

    @Autowired
    ChatManagement chatManagement;

    @Autowired
    HeldChats heldChats;

    @Autowired
    JdbcClient jdbc;

    TestTenant tenant;
    Api api;

    @BeforeEach
    void newTenant(TestService service) {
        this.service = service;
        tenant = service.newTenant("chat-tests");
        api = tenant.chats();
    }

    @Test
    void createsAChatWithEveryFieldOfTheInterface() {
        Reply reply = api.post("/api/v1/chats/", """
                {"user_id": "student-1", "title": "Fractions", "metadata": {"course": "math", "n": 3}}""");

        assertThat(reply.status()).isEqualTo(201);
        JsonNode chat = reply.json();
        assertThat(reply.fieldNames())
                .containsExactly(
                        "id", "user_id", "tenant_id", "title", "config", "created_at", "updated_at", "last_message_at");
        assertThat(chat.get("id").asString()).matches(UUID_TEXT);
        assertThat(chat.get("user_id").asString()).isEqualTo("student-1");
        assertThat(chat.get("tenant_id").asString()).isEqualTo(tenant.id());
        assertThat(chat.get("title").asString()).isEqualTo("Fractions");
        assertThat(chat.get("config").get("metadata").get("course").asString()).isEqualTo("math");
        assertThat(chat.get("config").get("metadata").get("n").asInt()).isEqualTo(3);
        assertThat(chat.get("created_at").asString()).matches(TIMESTAMP);
        assertThat(chat.get("updated_at").asString()).matches(TIMESTAMP);
        assertThat(chat.get("last_message_at").isNull()).isTrue();
    }

    @Test
    void createAnswersWithoutTheTrailingSlashAndGeneratesATitle() {
        Reply reply = api.post("/api/v1/chats", "{\"user_id\": \"student-2\"}");

        assertThat(reply.status()).isEqualTo(201);
        assertThat(reply.json().get("title").asString()).isEqualTo("New chat");
        assertThat(reply.json().get("config").get("metadata").size()).isZero();
    }

    @Test
    void getShowsMessageCountAndStatus() {
        String id = createChat("student-3");
        chatManagement.append(
                tenant.tenantId(), ChatId.of(UUID.fromString(id)), NewMessage.fromUser("hi", Map.of(), null));

        Reply reply = api.get("/api/v1/chats/" + id);

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.fieldNames())
                .containsExactly(
                        "id",
                        "user_id",
                        "tenant_id",
                        "title",
                        "config",
                        "created_at",
                        "updated_at",
                        "last_message_at",
                        "message_count",
                        "status");
        assertThat(reply.json().get("message_count").asInt()).isEqualTo(1);
        assertThat(reply.json().get("status").asString()).isEqualTo("active");
        assertThat(reply.json().get("last_message_at").asString()).matches(TIMESTAMP);
    }

    @Test
    void theFirstUserMessageTitlesAChatWhoseTitleWasNotGiven() {
        String generated = createChat("student-4");
        String given = api.post("/api/v1/chats", "{\"user_id\": \"student-4\", \"title\": \"Mine\"}")
                .json()
                .get("id")
                .asString();
        String answeredFirst = createChat("student-4");
        TenantId tenantId = tenant.tenantId();
        chatManagement.append(
                tenantId,
                ChatId.of(UUID.fromString(answeredFirst)),
                NewMessage.fromAssistant("Hello! What are we working on?", Map.of()));
        for (String id : List.of(generated, given, answeredFirst)) {
            chatManagement.append(
                    tenantId,
                    ChatId.of(UUID.fromString(id)),
                    NewMessage.fromUser("How do I add fractions?\nthanks", Map.of(), null));
            chatManagement.append(
                    tenantId, ChatId.of(UUID.fromString(id)), NewMessage.fromUser("second", Map.of(), null));
        }

        assertThat(api.get("/api/v1/chats/" + generated).json().get("title").asString())
                .isEqualTo("How do I add fractions?");
        assertThat(api.get("/api/v1/chats/" + given).json().get("title").asString())
                .isEqualTo("Mine");
        assertThat(api.get("/api/v1/chats/" + answeredFirst).json().get("title").asString())
                .as("an assistant's message does not title a chat; its first user message does")
                .isEqualTo("How do I add fractions?");
    }

    @Test
    void unknownAndMalformedChatIdsAreNotFound() {
        assertThat(api.get("/api/v1/chats/" + UUID.randomUUID()).status()).isEqualTo(404);
        assertThat(api.get("/api/v1/chats/not-a-uuid").status()).isEqualTo(404);
        assertThat(api.get("/api/v1/chats/not-a-uuid/messages").status()).isEqualTo(404);
        assertThat(api.delete("/api/v1/chats/123").status()).isEqualTo(404);
        Reply reply = api.get("/api/v1/chats/" + UUID.randomUUID());
        assertThat(reply.header("Content-Type")).startsWith("application/problem+json");
        assertThat(reply.json().get("code").asString()).isEqualTo("NOT_FOUND");
        assertThat(reply.json().get("fix").asString()).isNotBlank();
    }

    @Test
    void listsAUsersChatsWithPaging() {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            ids.add(createChat("student-5"));
        }
        createChat("someone-else");

        Reply all = api.get("/api/v1/chats/user/student-5");
        assertThat(all.status()).isEqualTo(200);
        assertThat(all.fieldNames()).containsExactly("chats", "total", "offset", "limit", "has_more");
        assertThat(all.json().get("total").asInt()).isEqualTo(5);
        assertThat(all.json().get("limit").asInt()).isEqualTo(50);
        assertThat(all.json().get("has_more").asBoolean()).isFalse();
        assertThat(idsOf(all.json().get("chats"))).containsExactlyElementsOf(ids.reversed());
        JsonNode first = all.json().get("chats").get(0);
        assertThat(first.has("message_count")).isTrue();
        assertThat(first.has("status")).isFalse();

        Reply ascending = api.get("/api/v1/chats/user/student-5?order=asc&offset=1&limit=2");
        assertThat(idsOf(ascending.json().get("chats"))).containsExactly(ids.get(1), ids.get(2));
        assertThat(ascending.json().get("has_more").asBoolean()).isTrue();
        assertThat(ascending.json().get("offset").asInt()).isEqualTo(1);

        Reply limitOne = api.get("/api/v1/chats/user/student-5?limit=1&offset=4");
        assertThat(idsOf(limitOne.json().get("chats"))).containsExactly(ids.getFirst());
        assertThat(limitOne.json().get("has_more").asBoolean()).isFalse();

        Reply pastTheEnd = api.get("/api/v1/chats/user/student-5?offset=10");
        assertThat(pastTheEnd.status()).isEqualTo(200);
        assertThat(pastTheEnd.json().get("chats").size()).isZero();
        assertThat(pastTheEnd.json().get("total").asInt()).isEqualTo(5);
        assertThat(pastTheEnd.json().get("has_more").asBoolean()).isFalse();

        assertThat(api.get("/api/v1/chats/user/student-5?limit=100").status()).isEqualTo(200);
    }

    @Test
    void chatsCreatedInTheSameInstantAreOrderedById() {
        String userId = "twins";
        createChat(userId);
        Instant same = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        jdbc.sql("UPDATE chats SET created_at = :at WHERE tenant_id = :tenant")
                .param("at", Sql.at(same))
                .param("tenant", tenant.uuid())
                .update();
        createChat(userId);
        createChat(userId);
        jdbc.sql("UPDATE chats SET created_at = :at WHERE tenant_id = :tenant")
                .param("at", Sql.at(same))
                .param("tenant", tenant.uuid())
                .update();

        List<String> ascending =
                idsOf(api.get("/api/v1/chats/user/twins?order=asc").json().get("chats"));
        List<String> descending =
                idsOf(api.get("/api/v1/chats/user/twins?order=desc").json().get("chats"));
        assertThat(ascending).isSorted().hasSize(3);
        assertThat(descending).containsExactlyElementsOf(ascending.reversed());
        List<String> paged = new ArrayList<>();
        for (int offset = 0; offset < 3; offset++) {
            paged.addAll(idsOf(api.get("/api/v1/chats/user/twins?order=asc&limit=1&offset=" + offset)
                    .json()
                    .get("chats")));
        }
        assertThat(paged).containsExactlyElementsOf(ascending);
    }

    @Test
    void aUserWithoutChatsIsNotFound() {
        assertThat(api.get("/api/v1/chats/user/nobody").status()).isEqualTo(404);
    }

    @Test
    void invalidPagingParametersAre400() {
        createChat("student-6");
        String chat = createChat("student-6");
        for (String query : List.of(
                "limit=0", "limit=101", "limit=-1", "limit=abc", "offset=-1", "offset=x", "order=up", "order=ASC")) {
            Reply list = api.get("/api/v1/chats/user/student-6?" + query);
            assertThat(list.status()).as(query).isEqualTo(400);
            assertThat(list.json().get("code").asString()).isEqualTo("VALIDATION_ERROR");
            assertThat(list.json().get("errors").size()).isEqualTo(1);
            assertThat(api.get("/api/v1/chats/" + chat + "/messages?" + query).status())
                    .as(query)
                    .isEqualTo(400);
        }
    }

    @Test
    void pagesMessagesInStoredOrder() {
        String id = createChat("student-7");
        TenantId tenantId = tenant.tenantId();
        ChatId chatId = ChatId.of(UUID.fromString(id));
        List<String> stored = new ArrayList<>();
        for (int i = 1; i <= 7; i++) {
            NewMessage message = i % 2 == 1
                    ? NewMessage.fromUser("question " + i, Map.of("k", i), null)
                    : NewMessage.fromAssistant("answer " + i, Map.of("provider", "offline"));
            stored.add(chatManagement
                    .append(tenantId, chatId, message)
                    .message()
                    .id()
                    .toString());
        }

        Reply page = api.get("/api/v1/chats/" + id + "/messages");
        assertThat(page.status()).isEqualTo(200);
        assertThat(page.fieldNames()).containsExactly("messages", "total", "offset", "limit", "has_more");
        assertThat(idsOf(page.json().get("messages"))).containsExactlyElementsOf(stored);
        JsonNode first = page.json().get("messages").get(0);
        assertThat(names(first))
                .containsExactly("id", "content", "sender_role", "media_type", "media_url", "created_at", "metadata");
        assertThat(first.get("sender_role").asString()).isEqualTo("user");
        assertThat(first.get("media_type").isNull()).isTrue();
        assertThat(first.get("media_url").isNull()).isTrue();
        assertThat(first.get("metadata").get("k").asInt()).isEqualTo(1);
        assertThat(page.json().get("messages").get(1).get("sender_role").asString())
                .isEqualTo("assistant");

        Reply middle = api.get("/api/v1/chats/" + id + "/messages?offset=2&limit=3");
        assertThat(idsOf(middle.json().get("messages"))).containsExactlyElementsOf(stored.subList(2, 5));
        assertThat(middle.json().get("has_more").asBoolean()).isTrue();

        Reply newest = api.get("/api/v1/chats/" + id + "/messages?order=desc&limit=2");
        assertThat(idsOf(newest.json().get("messages"))).containsExactly(stored.get(6), stored.get(5));

        Reply olderDescending = api.get("/api/v1/chats/" + id + "/messages?order=desc&offset=5&limit=100");
        assertThat(idsOf(olderDescending.json().get("messages"))).containsExactly(stored.get(1), stored.get(0));
        assertThat(olderDescending.json().get("has_more").asBoolean()).isFalse();

        Reply past = api.get("/api/v1/chats/" + id + "/messages?offset=7");
        assertThat(past.json().get("messages").size()).isZero();
        assertThat(past.json().get("total").asInt()).isEqualTo(7);
        assertThat(api.get("/api/v1/chats/" + id + "/messages?order=desc&offset=9")
                        .json()
                        .get("messages")
                        .size())
                .isZero();
    }

    @Test
    void anEmptyChatHasNoMessages() {
        Reply reply = api.get("/api/v1/chats/" + createChat("student-8") + "/messages");

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.json().get("messages").size()).isZero();
        assertThat(reply.json().get("total").asInt()).isZero();
        assertThat(reply.json().get("has_more").asBoolean()).isFalse();
    }

    @Test
    void patchChangesTitleMetadataAndStatus() {
        String id = createChat("student-9");

        Reply closed = api.patch("/api/v1/chats/" + id, """
                {"title": "Renamed", "metadata": {"x": true}, "status": "closed"}""");

        assertThat(closed.status()).isEqualTo(200);
        assertThat(closed.json().get("title").asString()).isEqualTo("Renamed");
        assertThat(closed.json().get("config").get("metadata").get("x").asBoolean())
                .isTrue();
        assertThat(closed.json().get("status").asString()).isEqualTo("closed");
        assertThat(api.get("/api/v1/chats/" + id).json().get("status").asString())
                .isEqualTo("closed");
        Reply reopened = api.patch("/api/v1/chats/" + id, "{\"status\": \"active\"}");
        assertThat(reopened.status()).isEqualTo(200);
        assertThat(reopened.json().get("status").asString()).isEqualTo("active");
        assertThat(reopened.json().get("title").asString()).isEqualTo("Renamed");
        assertThat(api.patch("/api/v1/chats/" + id, "{\"status\": \"open\"}").status())
                .isEqualTo(400);
        assertThat(api.patch("/api/v1/chats/" + id, "{\"title\": \"\"}").status())
                .isEqualTo(400);
        assertThat(api.patch("/api/v1/chats/" + UUID.randomUUID(), "{\"status\": \"closed\"}")
                        .status())
                .isEqualTo(404);
    }

    @Test
    void deleteRemovesTheChatAndItsMessages() {
        String id = createChat("student-10");
        chatManagement.append(
                tenant.tenantId(), ChatId.of(UUID.fromString(id)), NewMessage.fromUser("bye", Map.of(), null));

        Reply deleted = api.delete("/api/v1/chats/" + id);

        assertThat(deleted.status()).isEqualTo(200);
        assertThat(deleted.fieldNames()).containsExactly("success", "message", "deleted_at");
        assertThat(deleted.json().get("success").asBoolean()).isTrue();
        assertThat(deleted.json().get("deleted_at").asString()).matches(TIMESTAMP);
        assertThat(api.get("/api/v1/chats/" + id).status()).isEqualTo(404);
        assertThat(api.delete("/api/v1/chats/" + id).status()).isEqualTo(404);
        assertThat(jdbc.sql("SELECT count(*) FROM messages WHERE chat_id = :id")
                        .param("id", UUID.fromString(id))
                        .query(Long.class)
                        .single())
                .isZero();
    }

    @Test
    void aChatHeldOpenCannotBeDeleted() {
        String id = createChat("student-11");
        heldChats.hold(UUID.fromString(id));
        try {
            Reply blocked = api.delete("/api/v1/chats/" + id);
            assertThat(blocked.status()).isEqualTo(409);
            assertThat(blocked.json().get("code").asString()).isEqualTo("CONFLICT");
            assertThat(api.get("/api/v1/chats/" + id).status()).isEqualTo(200);
        } finally {
            heldChats.release(UUID.fromString(id));
        }
        assertThat(api.delete("/api/v1/chats/" + id).status()).isEqualTo(200);
    }

    @Test
    void aRepeatedClientMessageIdIsStoredOnce() {
        ChatId chatId = ChatId.of(UUID.fromString(createChat("student-12")));
        TenantId tenantId = tenant.tenantId();

        AppendedMessage first = chatManagement.append(tenantId, chatId, NewMessage.fromUser("once", Map.of(), "c-1"));
        AppendedMessage again = chatManagement.append(tenantId, chatId, NewMessage.fromUser("once", Map.of(), "c-1"));

        assertThat(first.duplicate()).isFalse();
        assertThat(again.duplicate()).isTrue();
        assertThat(again.message().id()).isEqualTo(first.message().id());
        assertThat(api.get("/api/v1/chats/" + chatId)
                        .json()
                        .get("message_count")
                        .asInt())
                .isEqualTo(1);
    }

    private String createChat(String userId) {
        Reply reply = api.post("/api/v1/chats", "{\"user_id\": \"" + userId + "\"}");
        assertThat(reply.status()).isEqualTo(201);
        return reply.json().get("id").asString();
    }

    static List<String> idsOf(JsonNode array) {
        List<String> ids = new ArrayList<>();
        array.forEach(item -> ids.add(item.get("id").asString()));
        return ids;
    }

    static List<String> names(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.propertyNames().forEach(names::add);
        return names;
    }
}
