package com.chatreview.chat;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.support.Api;
import com.chatreview.support.Api.Reply;
import com.chatreview.support.IntegrationTest;
import com.chatreview.support.TestService;
import com.chatreview.support.TestTenant;
import com.chatreview.tenancy.TenantId;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Conditional reads (decisions: "Conditional reads"): a chat and a page of its messages carry an {@code ETag}; the
 * same tag in {@code If-None-Match} is 304 with no body, the usual headers, and counts against the quota; any
 * change the body would show changes the tag.
 */
@IntegrationTest
class ConditionalReadsIntegrationTests {

    TestService service;

    @Autowired
    ChatManagement chats;

    Api api;
    TenantId tenantId;
    String chatId;

    @BeforeEach
    void newChat(TestService service) {
        this.service = service;
        TestTenant tenant = service.newTenant("conditional");
        tenantId = tenant.tenantId();
        api = tenant.chats();
        chatId = api.post("/api/v1/chats", "{\"user_id\": \"student\"}")
                .json()
                .get("id")
                .asString();
    }

    @Test
    void aChatUnchangedSinceItsTagIsNotModifiedAndAnyChangeGivesANewTag() {
        Reply first = api.get("/api/v1/chats/" + chatId);
        String tag = first.header("ETag");
        assertThat(tag).matches("\"[0-9a-f]{16}\"");
        assertThat(api.get("/api/v1/chats/" + chatId).header("ETag")).isEqualTo(tag);

        Reply unchanged = api.with("If-None-Match", tag).get("/api/v1/chats/" + chatId);
        assertThat(unchanged.status()).isEqualTo(304);
        assertThat(unchanged.text()).isEmpty();
        assertThat(unchanged.header("ETag")).isEqualTo(tag);
        assertThat(unchanged.header("X-Request-Id")).isNotBlank();
        assertThat(Long.parseLong(unchanged.header("X-RateLimit-Remaining")))
                .as("a 304 is a request like any other")
                .isLessThan(Long.parseLong(first.header("X-RateLimit-Remaining")));
        assertThat(api.with("If-None-Match", "\"0000000000000000\", " + tag)
                        .get("/api/v1/chats/" + chatId)
                        .status())
                .isEqualTo(304);

        assertThat(api.patch("/api/v1/chats/" + chatId, "{\"title\": \"Renamed\"}")
                        .status())
                .isEqualTo(200);
        Reply renamed = api.with("If-None-Match", tag).get("/api/v1/chats/" + chatId);
        assertThat(renamed.status()).isEqualTo(200);
        assertThat(renamed.json().get("title").asString()).isEqualTo("Renamed");
        String renamedTag = renamed.header("ETag");
        assertThat(renamedTag).isNotEqualTo(tag);

        chats.append(tenantId, ChatId.of(UUID.fromString(chatId)), NewMessage.fromUser("hello", Map.of(), null));
        Reply grown = api.with("If-None-Match", renamedTag).get("/api/v1/chats/" + chatId);
        assertThat(grown.status()).isEqualTo(200);
        assertThat(grown.header("ETag")).isNotEqualTo(renamedTag);
    }

    @Test
    void aPageOfMessagesIsNotModifiedUntilAMessageIsAddedAndEachPageHasItsOwnTag() {
        chats.append(tenantId, ChatId.of(UUID.fromString(chatId)), NewMessage.fromUser("one", Map.of(), null));
        String path = "/api/v1/chats/" + chatId + "/messages";
        Reply page = api.get(path);
        String tag = page.header("ETag");
        assertThat(tag).matches("\"[0-9a-f]{16}\"");
        assertThat(api.get(path + "?order=desc").header("ETag")).isNotEqualTo(tag);
        assertThat(api.get(path + "?limit=10").header("ETag")).isNotEqualTo(tag);

        Reply unchanged = api.with("If-None-Match", tag).get(path);
        assertThat(unchanged.status()).isEqualTo(304);
        assertThat(unchanged.text()).isEmpty();
        assertThat(unchanged.header("ETag")).isEqualTo(tag);

        chats.append(tenantId, ChatId.of(UUID.fromString(chatId)), NewMessage.fromUser("two", Map.of(), null));
        Reply grown = api.with("If-None-Match", tag).get(path);
        assertThat(grown.status()).isEqualTo(200);
        assertThat(grown.json().get("messages")).hasSize(2);
        assertThat(grown.header("ETag")).isNotEqualTo(tag);
        assertThat(api.with("If-None-Match", grown.header("ETag")).get(path).status())
                .isEqualTo(304);
    }

    @Test
    void aTagDoesNotHideThatTheChatIsGoneOrAnothersTenants() {
        String tag = api.get("/api/v1/chats/" + chatId).header("ETag");
        Api stranger = service.newTenant("conditional-stranger").chats();

        assertThat(stranger.with("If-None-Match", tag)
                        .get("/api/v1/chats/" + chatId)
                        .status())
                .isEqualTo(404);
        assertThat(stranger.with("If-None-Match", tag)
                        .get("/api/v1/chats/" + chatId + "/messages")
                        .status())
                .isEqualTo(404);
    }
}
