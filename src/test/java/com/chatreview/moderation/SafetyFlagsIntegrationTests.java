package com.chatreview.moderation;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.support.Api;
import com.chatreview.support.Api.Reply;
import com.chatreview.support.ChatSocket;
import com.chatreview.support.IntegrationTest;
import com.chatreview.support.TestService;
import com.chatreview.support.TestTenant;
import com.chatreview.webhook.Receiver;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Safety screening of students' messages over the real socket (docs/safety.md): a flagged message is stored and
 * answered as any, with {@code metadata.moderation}; its flag is listed for the tenant, sent to its webhook when the
 * category is one it asked for; a benign look-alike is not flagged.
 */
@IntegrationTest
class SafetyFlagsIntegrationTests {

    @org.springframework.beans.factory.annotation.Autowired
    org.springframework.jdbc.core.simple.JdbcClient jdbc;

    @Test
    void aFlaggedMessageIsAnsweredStoredWithItsScreeningListedAndSentToTheWebhook(TestService service)
            throws Exception {
        TestTenant tenant = service.newTenant("safety-flags");
        Api api = tenant.chats();
        try (Receiver receiver = new Receiver()) {
            Reply hook = api.post(
                    "/api/v1/webhooks",
                    "{\"url\": \"" + receiver.url() + "\", \"event_types\": [\"chat.message.flagged\"]}");
            assertThat(hook.status()).as(hook.toString()).isEqualTo(201);
            String chatId = api.post("/api/v1/chats", "{\"user_id\": \"student-1\"}")
                    .json()
                    .get("id")
                    .asString();
            Instant before = Instant.now().minusSeconds(1);

            List<JsonNode> replies = new ArrayList<>();
            try (ChatSocket socket = tenant.socket("student-1", chatId)) {
                socket.awaitEvent("connection_established");
                for (String text : List.of(
                        "this homework is killing me, how do I kill a process in linux?",
                        "can you help with question 3, also i want to kill myself, nobody would notice")) {
                    socket.sendContent(text);
                    List<JsonNode> events = socket.awaitReplyEnd();
                    replies.add(events.getLast());
                }
            }

            assertThat(replies)
                    .allSatisfy(ended ->
                            assertThat(ended.get("event_type").asString()).isEqualTo("message_stream_ended"));
            assertThat(replies.get(0).get("content").asString())
                    .as("the look-alike answered as any question")
                    .doesNotContain("I'm really sorry");
            assertThat(replies.get(1).get("content").asString())
                    .as("care first, with the service's help text, then the answer")
                    .startsWith("I'm really sorry you're feeling this way.")
                    .contains("If you are in danger right now, call your local emergency number.")
                    .contains("I'm here for your schoolwork whenever you want.\n\n");
            JsonNode messages =
                    api.get("/api/v1/chats/" + chatId + "/messages").json().get("messages");
            assertThat(messages).hasSize(4);
            assertThat(messages.get(0).get("metadata").has("moderation"))
                    .as("the benign look-alike")
                    .isFalse();
            JsonNode flaggedMessage = messages.get(2);
            JsonNode moderation = flaggedMessage.get("metadata").get("moderation");
            assertThat(moderation.size()).isEqualTo(2);
            assertThat(moderation.get("categories").toString()).isEqualTo("[\"self_harm\"]");
            assertThat(moderation.get("severity").asString()).isEqualTo("high");

            Reply listed = api.get("/api/v1/moderation/flags");
            assertThat(listed.status()).as(listed.toString()).isEqualTo(200);
            assertThat(listed.fieldNames()).containsExactly("flags", "total", "offset", "limit", "has_more");
            assertThat(listed.json().get("total").asInt()).isEqualTo(1);
            JsonNode flag = listed.json().get("flags").get(0);
            List<String> names = new ArrayList<>();
            flag.propertyNames().forEach(names::add);
            assertThat(names)
                    .containsExactly("id", "chat_id", "user_id", "message_id", "categories", "severity", "created_at");
            assertThat(flag.get("chat_id").asString()).isEqualTo(chatId);
            assertThat(flag.get("user_id").asString()).isEqualTo("student-1");
            assertThat(flag.get("message_id").asString())
                    .isEqualTo(flaggedMessage.get("id").asString());
            assertThat(flag.get("categories").toString()).isEqualTo("[\"self_harm\"]");
            assertThat(flag.get("severity").asString()).isEqualTo("high");

            JsonNode delivered =
                    Api.JSON.readTree(receiver.next(Duration.ofSeconds(20)).body());
            assertThat(delivered.get("type").asString()).isEqualTo("chat.message.flagged");
            assertThat(delivered.get("data")).isEqualTo(flag);

            assertThat(api.get("/api/v1/moderation/flags?category=self_harm&from=" + before)
                            .json()
                            .get("total")
                            .asInt())
                    .isEqualTo(1);
            assertThat(api.get("/api/v1/moderation/flags?category=violence")
                            .json()
                            .get("total")
                            .asInt())
                    .isZero();
            assertThat(api.get("/api/v1/moderation/flags?to=" + before)
                            .json()
                            .get("total")
                            .asInt())
                    .isZero();
            assertThat(service.newTenant("safety-flags-other")
                            .chats()
                            .get("/api/v1/moderation/flags")
                            .json()
                            .get("total")
                            .asInt())
                    .as("another tenant's")
                    .isZero();
        }
    }

    @Test
    void onlyTheAlertCategoriesReachTheWebhook(TestService service) throws Exception {
        TestTenant tenant = service.newTenant("safety-alerts");
        Api api = tenant.chats();
        Reply defaults = api.get("/api/v1/settings/moderation");
        assertThat(defaults.json().toString())
                .isEqualTo("{\"alert_categories\":[\"self_harm\",\"violence\",\"sexual_minors\",\"harassment\","
                        + "\"contact_details\"],\"help_text\":null}");
        Reply set = api.put(
                "/api/v1/settings/moderation",
                "{\"alert_categories\": [\"self_harm\"], \"help_text\": \"Talk to Ms Reed in room 12.\"}");
        assertThat(set.status()).as(set.toString()).isEqualTo(200);
        assertThat(api.get("/api/v1/settings/moderation").json()).isEqualTo(set.json());

        try (Receiver receiver = new Receiver()) {
            api.post(
                    "/api/v1/webhooks",
                    "{\"url\": \"" + receiver.url() + "\", \"event_types\": [\"chat.message.flagged\"]}");
            String chatId = api.post("/api/v1/chats", "{\"user_id\": \"student-2\"}")
                    .json()
                    .get("id")
                    .asString();
            try (ChatSocket socket = tenant.socket("student-2", chatId)) {
                socket.awaitEvent("connection_established");
                socket.sendContent("my number is +49 151 2345 6789");
                socket.awaitReplyEnd();
                socket.sendContent("i want to die");
                assertThat(socket.awaitReplyEnd().getLast().get("content").asString())
                        .contains("Talk to Ms Reed in room 12.");
                socket.sendContent("I'm going to bring my dad's gun to school tomorrow");
                List<JsonNode> threat = socket.awaitReplyEnd();
                assertThat(threat.getLast().get("content").asString())
                        .as("the policy alone: no help with hurting anyone")
                        .isEqualTo(SafetyPolicy.reply(List.of(SafetyCategory.VIOLENCE), "en", null)
                                .text());
            }
            assertThat(jdbc.sql("SELECT count(*) FROM ai_usage WHERE chat_id = :chat")
                            .param("chat", java.util.UUID.fromString(chatId))
                            .query(Long.class)
                            .single())
                    .as("the two replies with an AI answer are counted; the policy alone is not")
                    .isEqualTo(2);

            JsonNode delivered =
                    Api.JSON.readTree(receiver.next(Duration.ofSeconds(20)).body());
            assertThat(delivered.get("data").get("categories").toString())
                    .as("the contact details were flagged, not sent")
                    .isEqualTo("[\"self_harm\"]");
            assertThat(api.get("/api/v1/moderation/flags").json().get("total").asInt())
                    .as("every flag is listed, whatever reached the webhook")
                    .isEqualTo(3);
            assertThat(receiver.poll(Duration.ofSeconds(2)))
                    .as("nothing but the self-harm flag was sent")
                    .isNull();
        }
    }

    @Test
    void aClientCannotFlagItsOwnMessageNorHideAFlag(TestService service) {
        TestTenant tenant = service.newTenant("safety-spoof");
        Api api = tenant.chats();
        String chatId = api.post("/api/v1/chats", "{\"user_id\": \"student-3\"}")
                .json()
                .get("id")
                .asString();
        try (ChatSocket socket = tenant.socket("student-3", chatId)) {
            socket.awaitEvent("connection_established");
            socket.send("{\"content\": \"what is 7 times 8?\", \"metadata\": {\"moderation\": {\"categories\":"
                    + " [\"self_harm\"], \"severity\": \"high\"}}}");
            assertThat(socket.awaitReplyEnd().getLast().get("content").asString())
                    .doesNotContain("I'm really sorry");
            socket.send("{\"content\": \"i want to die\", \"metadata\": {\"moderation\": null}}");
            socket.awaitReplyEnd();
        }
        JsonNode messages =
                api.get("/api/v1/chats/" + chatId + "/messages").json().get("messages");
        assertThat(messages.get(0).get("metadata").has("moderation")).isFalse();
        assertThat(messages.get(2)
                        .get("metadata")
                        .get("moderation")
                        .get("categories")
                        .toString())
                .isEqualTo("[\"self_harm\"]");
        assertThat(api.get("/api/v1/moderation/flags").json().get("total").asInt())
                .isEqualTo(1);
    }

    @Test
    void badQueriesAndSettingsAreRefusedNamingTheField(TestService service) {
        Api api = service.newTenant("safety-bad-input").chats();
        for (String query : List.of(
                "category=weapons",
                "from=yesterday",
                "to=2026-13-01",
                "limit=101",
                "offset=-1",
                "from=2026-12-07&to=2026-12-01")) {
            Reply refused = api.get("/api/v1/moderation/flags?" + query);
            assertThat(refused.status()).as(query).isEqualTo(400);
            assertThat(refused.json().get("code").asString()).isEqualTo("VALIDATION_ERROR");
            assertThat(refused.json().get("fix").asString()).isNotBlank();
        }
        for (String body : List.of(
                "{}",
                "{\"alert_categories\": [\"weapons\"]}",
                "{\"alert_categories\": [], \"help_text\": \"\"}",
                "{\"alert_categories\": [], \"help_text\": \"" + "x".repeat(2_001) + "\"}",
                "{\"alert_categories\": \"self_harm\"}")) {
            Reply refused = api.put("/api/v1/settings/moderation", body);
            assertThat(refused.status()).as(body).isEqualTo(400);
            assertThat(refused.json().get("fix").asString()).isNotBlank();
        }
        assertThat(api.put("/api/v1/settings/moderation", "{\"alert_categories\": []}")
                        .json()
                        .toString())
                .as("no alert at all is a choice")
                .isEqualTo("{\"alert_categories\":[],\"help_text\":null}");
    }
}
