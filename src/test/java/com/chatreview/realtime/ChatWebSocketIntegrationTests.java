package com.chatreview.realtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.support.Api;
import com.chatreview.support.ChatSocket;
import com.chatreview.support.IntegrationTest;
import com.chatreview.support.SharedTestConfiguration;
import com.chatreview.support.SingleNodeToo;
import com.chatreview.support.TestService;
import com.chatreview.support.TestTenant;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** {@code /ws/chat} over real sockets: connecting, authentication, one reply's events and what is stored. */
@SingleNodeToo
@IntegrationTest
class ChatWebSocketIntegrationTests {

    static final Pattern TIMESTAMP = Pattern.compile("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z");

    TestService service;

    TestTenant tenant;
    Api api;

    @BeforeEach
    void newTenant(TestService service) {
        this.service = service;
        tenant = service.newTenant("ws-tests");
        api = tenant.chats();
    }

    @Test
    void connectsWithQueryParametersAndAnnouncesANewUser() {
        String chatId = createChat("owner");

        try (ChatSocket owner = tenant.socket("owner", chatId);
                ChatSocket teacher = tenant.socket("teacher", chatId)) {
            JsonNode established = owner.next();
            assertThat(established.get("event_type").asString()).isEqualTo("connection_established");
            assertThat(established.get("user_id").asString()).isEqualTo("owner");
            assertThat(established.get("chat_id").asString()).isEqualTo(chatId);
            assertThat(established.get("tenant_id").asString()).isEqualTo(tenant.id());
            assertThat(established.get("last_seq").asLong()).isZero();
            assertThat(established.get("timestamp").asString()).matches(TIMESTAMP);

            assertThat(teacher.next().get("event_type").asString()).isEqualTo("connection_established");
            JsonNode created = teacher.next();
            assertThat(created.get("event_type").asString()).isEqualTo("user_created");
            assertThat(created.get("user_id").asString()).isEqualTo("teacher");

            // the owner existed already: the next thing it hears is its own message, not user_created
            owner.sendContent("Hello there");
            assertThat(owner.next().get("event_type").asString()).isEqualTo("message_received");
        }
    }

    @Test
    void connectsWithHeaders() {
        String chatId = createChat("owner");

        try (ChatSocket socket = ChatSocket.to(service.port())
                .header("X-API-Key", tenant.apiKey())
                .header("X-User-ID", "owner")
                .header("X-Chat-ID", chatId)
                .connect()) {
            JsonNode established = socket.next();
            assertThat(established.get("event_type").asString()).isEqualTo("connection_established");
            assertThat(established.get("user_id").asString()).isEqualTo("owner");
            assertThat(established.get("chat_id").asString()).isEqualTo(chatId);
            assertThat(established.get("tenant_id").asString()).isEqualTo(tenant.id());
        }
    }

    /** Resume in its header form: {@code X-Resume-From} gets what was stored after it, and wins over the query. */
    @Test
    void resumesWithTheXResumeFromHeader() {
        String chatId = createChat("owner");
        long firstSeq;
        try (ChatSocket socket = tenant.socket("owner", chatId)) {
            socket.awaitEvent("connection_established");
            socket.sendContent("first");
            firstSeq = socket.awaitEvent("message_received").get("seq").asLong();
            socket.awaitReplyEnd();
            socket.sendContent("second");
            socket.awaitEvent("message_received");
            socket.awaitReplyEnd();
        }

        try (ChatSocket resumed = ChatSocket.to(service.port())
                .header("X-API-Key", tenant.apiKey())
                .header("X-User-ID", "owner")
                .header("X-Chat-ID", chatId)
                .header("X-Resume-From", Long.toString(firstSeq))
                .query("resume_from", "0")
                .connect()) {
            assertThat(resumed.next().get("event_type").asString()).isEqualTo("connection_established");
            JsonNode reply = resumed.awaitEvent("message_stream_ended");
            JsonNode second = resumed.awaitEvent("message_received");
            JsonNode secondReply = resumed.awaitEvent("message_stream_ended");

            assertThat(reply.get("seq").asLong()).isGreaterThan(firstSeq);
            assertThat(second.get("content").asString()).isEqualTo("second");
            assertThat(secondReply.get("seq").asLong())
                    .isGreaterThan(second.get("seq").asLong());
            assertThat(resumed.received())
                    .as("nothing at or before X-Resume-From: the query's resume_from=0 lost")
                    .noneMatch(event -> event.has("seq") && event.get("seq").asLong() <= firstSeq);
        }
    }

    /**
     * A resume reads the stored messages a batch of 100 at a time: a chat of more than one batch comes back whole,
     * in order, once each, across the batches' edge, from 0 and from a seq inside the first batch, and live events
     * follow.
     */
    @Test
    void resumesAChatLongerThanTheBatchesItIsReadIn() {
        String chatId = createChat("owner");
        int questions = 55;
        List<Long> storedSeqs = new ArrayList<>();
        try (ChatSocket socket = tenant.socket("owner", chatId)) {
            socket.awaitEvent("connection_established");
            long nextSend = System.nanoTime();
            for (int i = 1; i <= questions; i++) {
                // within the connection's 10 messages a second
                LockSupport.parkNanos(nextSend - System.nanoTime());
                nextSend = System.nanoTime() + Duration.ofMillis(110).toNanos();
                socket.sendContent("question " + i);
                List<JsonNode> reply = socket.awaitReplyEnd();
                assertThat(reply.getLast().get("event_type").asString())
                        .as("reply to question %d", i)
                        .isEqualTo("message_stream_ended");
                reply.stream()
                        .filter(event -> event.get("event_type").asString().equals("message_received")
                                || event.get("event_type").asString().equals("message_stream_ended"))
                        .forEach(event -> storedSeqs.add(event.get("seq").asLong()));
            }
        }
        assertThat(storedSeqs).hasSize(2 * questions);

        for (int from : List.of(0, 6)) {
            long resumeFrom = from == 0 ? 0 : storedSeqs.get(from - 1);
            List<Long> expected = storedSeqs.subList(from, storedSeqs.size());
            try (ChatSocket resumed = ChatSocket.to(service.port())
                    .query("api_key", tenant.apiKey())
                    .query("user_id", "owner")
                    .query("chat_id", chatId)
                    .query("resume_from", Long.toString(resumeFrom))
                    .connect()) {
                assertThat(resumed.next().get("event_type").asString()).isEqualTo("connection_established");
                List<JsonNode> missed = new ArrayList<>();
                while (missed.size() < expected.size()) {
                    missed.add(resumed.next());
                }
                assertThat(missed.stream().map(event -> event.get("seq").asLong()))
                        .as("every stored message after %d once, in seq order", resumeFrom)
                        .containsExactlyElementsOf(expected);
                assertThat(missed.stream().map(event -> event.get("event_type").asString()))
                        .as("a question's message_received, then its reply's message_stream_ended")
                        .containsExactlyElementsOf(
                                Collections.nCopies(
                                                expected.size() / 2,
                                                List.of("message_received", "message_stream_ended"))
                                        .stream()
                                        .flatMap(List::stream)
                                        .toList());
                assertThat(missed.get(0).get("content").asString()).isEqualTo("question " + (from / 2 + 1));

                resumed.sendContent("and one more");
                assertThat(resumed.awaitEvent("message_received").get("seq").asLong())
                        .isGreaterThan(storedSeqs.getLast());
                resumed.awaitReplyEnd();
                storedSeqs.add(resumed.received().stream()
                        .filter(event -> event.get("event_type").asString().equals("message_received"))
                        .reduce((first, second) -> second)
                        .orElseThrow()
                        .get("seq")
                        .asLong());
                storedSeqs.add(resumed.received().getLast().get("seq").asLong());
            }
        }
    }

    @Test
    void aHeaderWinsOverAQueryParameter() {
        String chatId = createChat("owner");
        String otherChat = createChat("owner");

        try (ChatSocket socket = ChatSocket.to(service.port())
                .query("api_key", "not-a-key")
                .query("user_id", "from-query")
                .query("chat_id", otherChat)
                .header("X-API-Key", tenant.apiKey())
                .header("X-User-ID", "owner")
                .header("X-Chat-ID", chatId)
                .connect()) {
            JsonNode established = socket.next();
            assertThat(established.get("event_type").asString()).isEqualTo("connection_established");
            assertThat(established.get("user_id").asString()).isEqualTo("owner");
            assertThat(established.get("chat_id").asString()).isEqualTo(chatId);
        }
        try (ChatSocket socket = ChatSocket.to(service.port())
                .query("api_key", tenant.apiKey())
                .query("user_id", "owner")
                .query("chat_id", chatId)
                .header("X-API-Key", "crs_wrong")
                .connect()) {
            assertThat(socket.next().get("error_code").asString()).isEqualTo("AUTH_ERROR");
            assertThat(socket.awaitClose()).isEqualTo(4401);
        }
    }

    @Test
    void authenticationFailuresAreAuthErrorsThenClose4401() {
        String chatId = createChat("owner");
        List<ChatSocket.Options> failing = List.of(
                ChatSocket.to(service.port())
                        .query("api_key", "crs_not-a-real-key")
                        .query("user_id", "owner")
                        .query("chat_id", chatId),
                ChatSocket.to(service.port()).query("api_key", tenant.apiKey()).query("chat_id", chatId),
                ChatSocket.to(service.port()).query("user_id", "owner").query("chat_id", chatId),
                ChatSocket.to(service.port()).query("api_key", tenant.apiKey()).query("user_id", "owner"),
                ChatSocket.to(service.port())
                        .query("api_key", tenant.apiKey())
                        .query("user_id", "  ")
                        .query("chat_id", chatId));

        for (ChatSocket.Options options : failing) {
            try (ChatSocket socket = options.connect()) {
                JsonNode error = socket.next();
                assertThat(error.get("event_type").asString()).isEqualTo("error");
                assertThat(error.get("error_code").asString()).isEqualTo("AUTH_ERROR");
                assertThat(error.get("error_message").asString()).isNotBlank();
                assertThat(error.get("details").get("fix").asString()).isNotBlank();
                assertThat(socket.awaitClose()).isEqualTo(4401);
            }
        }
    }

    @Test
    void unknownForeignAndMalformedChatsAreChatNotFoundThenClose4404() {
        TestTenant other = service.newTenant("ws-other");
        String foreignChat = other.chats()
                .post("/api/v1/chats", "{\"user_id\": \"owner\"}")
                .json()
                .get("id")
                .asString();

        for (String chatId : List.of(UUID.randomUUID().toString(), foreignChat, "not-a-uuid")) {
            try (ChatSocket socket = tenant.socket("owner", chatId)) {
                JsonNode error = socket.next();
                assertThat(error.get("event_type").asString()).isEqualTo("error");
                assertThat(error.get("error_code").asString()).isEqualTo("CHAT_NOT_FOUND");
                assertThat(error.get("details").get("fix").asString()).contains("/api/v1/chats");
                assertThat(socket.awaitClose()).isEqualTo(4404);
            }
        }
    }

    @Test
    void aFrameIsAcknowledgedAnsweredInStreamedTokensAndStored() {
        String chatId = createChat("owner");

        try (ChatSocket socket = connected("owner", chatId)) {
            socket.send("""
                    {"content": "How do I add fractions?", "metadata": {"source": "test", "n": 7}}""");
            List<JsonNode> events = socket.awaitReplyEnd();

            Reply reply = Reply.of(events);
            assertThat(reply.received().get("message_id").asString()).isNotBlank();
            assertThat(reply.received().get("chat_id").asString()).isEqualTo(chatId);
            assertThat(reply.received().get("user_id").asString()).isEqualTo("owner");
            assertThat(reply.received().get("content").asString()).isEqualTo("How do I add fractions?");
            assertThat(reply.started().get("chat_id").asString()).isEqualTo(chatId);
            assertThat(reply.started().get("user_id").asString()).isEqualTo("owner");
            assertThat(reply.tokens()).isNotEmpty();
            assertThat(reply.tokens()).allSatisfy(token -> {
                assertThat(token.get("chat_id").asString()).isEqualTo(chatId);
                assertThat(token.get("message_id").asString()).isEqualTo(reply.messageId());
            });
            assertThat(reply.ended().get("user_id").asString()).isEqualTo("owner");
            assertThat(reply.ended().get("chat_id").asString()).isEqualTo(chatId);
            assertThat(reply.ended().get("content").asString()).isEqualTo(reply.tokenText());
            assertThat(events)
                    .allSatisfy(event ->
                            assertThat(event.get("timestamp").asString()).matches(TIMESTAMP));

            JsonNode messages = messages(chatId);
            assertThat(messages).hasSize(2);
            JsonNode question = messages.get(0);
            assertThat(question.get("id").asString())
                    .isEqualTo(reply.received().get("message_id").asString());
            assertThat(question.get("sender_role").asString()).isEqualTo("user");
            assertThat(question.get("content").asString()).isEqualTo("How do I add fractions?");
            assertThat(question.get("metadata").get("user_id").asString()).isEqualTo("owner");
            assertThat(question.get("metadata").get("source").asString()).isEqualTo("test");
            assertThat(question.get("metadata").get("n").asInt()).isEqualTo(7);
            JsonNode answer = messages.get(1);
            assertThat(answer.get("id").asString()).isEqualTo(reply.messageId());
            assertThat(answer.get("sender_role").asString()).isEqualTo("assistant");
            assertThat(answer.get("content").asString()).isEqualTo(reply.tokenText());
            assertThat(answer.get("metadata").get("provider").asString()).isEqualTo("offline");
            assertThat(answer.get("metadata").get("model").asString()).isNotBlank();
            assertThat(answer.get("metadata").get("finish_reason").asString()).isEqualTo("stop");
            JsonNode usage = answer.get("metadata").get("usage");
            assertThat(usage.get("total_tokens").asInt())
                    .isEqualTo(usage.get("prompt_tokens").asInt()
                            + usage.get("completion_tokens").asInt())
                    .isPositive();
            assertThat(usage.get("estimated").isBoolean())
                    .as("the offline provider counts its own words")
                    .isTrue();
            assertThat(usage.get("estimated").asBoolean()).isFalse();
        }
    }

    @Test
    void framesSentBackToBackAreAnsweredOneAfterTheOtherInOrder() {
        String chatId = createChat("owner");

        try (ChatSocket socket = connected("owner", chatId)) {
            socket.sendContent("first question about apples");
            socket.sendContent("second question about pears");
            socket.sendContent("third question about plums");

            List<JsonNode> all = new ArrayList<>();
            List<Reply> replies = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                List<JsonNode> events = socket.awaitReplyEnd();
                all.addAll(events);
                replies.add(Reply.of(events));
            }
            assertThat(replies)
                    .extracting(reply -> reply.received().get("content").asString())
                    .containsExactly(
                            "first question about apples", "second question about pears", "third question about plums");
            assertStrictlyIncreasingSeq(all);

            JsonNode messages = messages(chatId);
            assertThat(messages).hasSize(6);
            for (int i = 0; i < 6; i++) {
                assertThat(messages.get(i).get("sender_role").asString()).isEqualTo(i % 2 == 0 ? "user" : "assistant");
            }
            for (int i = 0; i < 3; i++) {
                assertThat(messages.get(2 * i + 1).get("content").asString())
                        .isEqualTo(replies.get(i).tokenText());
            }
        }
    }

    @Test
    void everyConnectionOnTheChatHearsEveryEventWithTheSameSeq() {
        String chatId = createChat("student");

        try (ChatSocket student = connected("student", chatId);
                ChatSocket teacher = joined("teacher", chatId)) {
            student.sendContent("question from the student");
            List<JsonNode> studentEvents = student.awaitReplyEnd();
            List<JsonNode> teacherEvents = teacher.awaitReplyEnd();
            assertThat(teacherEvents).isEqualTo(studentEvents);
            assertThat(Reply.of(studentEvents).ended().get("user_id").asString())
                    .isEqualTo("student");

            teacher.sendContent("a remark from the teacher");
            List<JsonNode> fromTeacher = teacher.awaitReplyEnd();
            assertThat(student.awaitReplyEnd()).isEqualTo(fromTeacher);
            Reply reply = Reply.of(fromTeacher);
            assertThat(reply.received().get("user_id").asString()).isEqualTo("teacher");
            assertThat(reply.started().get("user_id").asString()).isEqualTo("teacher");
            assertThat(reply.ended().get("user_id").asString()).isEqualTo("teacher");

            List<JsonNode> all = new ArrayList<>(studentEvents);
            all.addAll(fromTeacher);
            assertStrictlyIncreasingSeq(all);
        }
        JsonNode messages = messages(chatId);
        assertThat(messages).hasSize(4);
        assertThat(messages.get(2).get("metadata").get("user_id").asString()).isEqualTo("teacher");
    }

    @Test
    void invalidFramesAreRefusedAndTheConnectionStaysOpen() {
        String chatId = createChat("owner");
        List<String> invalid = List.of(
                "not json",
                "{\"metadata\": {}}",
                "{\"content\": \"   \"}",
                "{\"content\": 42}",
                "{\"content\": \"hi\", \"metadata\": \"not an object\"}",
                "[\"content\"]",
                "{\"content\": \"" + "x".repeat(64 * 1024) + "\"}");
        List<String> holdingNul = List.of(
                "{\"content\": \"a\\u0000b\"}",
                "{\"content\": \"hi\", \"metadata\": {\"k\": [\"\\u0000\"]}}",
                "{\"content\": \"hi\", \"client_message_id\": \"\\u0000\"}");

        try (ChatSocket socket = connected("owner", chatId)) {
            for (String frame : invalid) {
                socket.send(frame);
                assertInvalidMessage(socket.next());
            }
            socket.sendBinary("{\"content\": \"hi\"}".getBytes(StandardCharsets.UTF_8));
            assertInvalidMessage(socket.next());
            assertThat(socket.isOpen()).isTrue();
            assertThat(messages(chatId)).isEmpty();

            socket.sendContent("now a valid one");
            Reply reply = Reply.of(socket.awaitReplyEnd());
            assertThat(reply.received().get("content").asString()).isEqualTo("now a valid one");
        }
        try (ChatSocket socket = connected("owner", chatId)) {
            for (String frame : holdingNul) {
                socket.send(frame);
                JsonNode refused = socket.next();
                assertInvalidMessage(refused);
                assertThat(refused.get("error_message").asString()).contains("U+0000");
            }
        }
        assertThat(messages(chatId)).hasSize(2);
    }

    @Test
    void aClosedChatRefusesFramesAndStoresNothing() {
        String chatId = createChat("owner");
        assertThat(api.patch("/api/v1/chats/" + chatId, "{\"status\": \"closed\"}")
                        .status())
                .isEqualTo(200);

        try (ChatSocket socket = connected("owner", chatId)) {
            socket.sendContent("anyone there?");
            JsonNode error = socket.next();
            assertThat(error.get("event_type").asString()).isEqualTo("error");
            assertThat(error.get("error_code").asString()).isEqualTo("CHAT_CLOSED");
            assertThat(error.get("details").get("fix").asString()).isNotBlank();
            assertThat(messages(chatId)).isEmpty();

            assertThat(api.patch("/api/v1/chats/" + chatId, "{\"status\": \"active\"}")
                            .status())
                    .isEqualTo(200);
            socket.sendContent("and now?");
            assertThat(Reply.of(socket.awaitReplyEnd())
                            .received()
                            .get("content")
                            .asString())
                    .isEqualTo("and now?");
        }
        assertThat(messages(chatId)).hasSize(2);
    }

    @Test
    void aRepeatedClientMessageIdStoresNothingAndAcknowledgesTheOriginal() {
        String chatId = createChat("owner");

        try (ChatSocket socket = connected("owner", chatId);
                ChatSocket watcher = joined("watcher", chatId)) {
            socket.send("{\"content\": \"only once\", \"client_message_id\": \"client-1\"}");
            Reply first = Reply.of(socket.awaitReplyEnd());
            watcher.awaitReplyEnd();

            socket.send("{\"content\": \"only once\", \"client_message_id\": \"client-1\"}");
            JsonNode again = socket.next();
            assertThat(again.get("event_type").asString()).isEqualTo("message_received");
            assertThat(again.get("message_id").asString())
                    .isEqualTo(first.received().get("message_id").asString());
            assertThat(again.get("content").asString()).isEqualTo("only once");

            // no reply was started for the repeat: the next events are those of the next frame
            socket.sendContent("something new");
            Reply next = Reply.of(socket.awaitReplyEnd());
            assertThat(next.received().get("content").asString()).isEqualTo("something new");
            assertThat(Reply.of(watcher.awaitReplyEnd())
                            .received()
                            .get("content")
                            .asString())
                    .isEqualTo("something new");
        }
        JsonNode messages = messages(chatId);
        assertThat(messages).hasSize(4);
        assertThat(messages)
                .extracting(message -> message.get("content").asString())
                .filteredOn("only once"::equals)
                .hasSize(1);
    }

    @Test
    void aFailingAssistantIsAnAiErrorAndOnlyTheUserMessageIsStored() {
        String chatId = createChat("owner");

        try (ChatSocket socket = connected("owner", chatId)) {
            socket.sendContent("please fail " + SharedTestConfiguration.FAIL_MARKER);
            List<JsonNode> events = socket.awaitReplyEnd();
            JsonNode error = events.getLast();
            assertThat(events.getFirst().get("event_type").asString()).isEqualTo("message_received");
            assertThat(error.get("event_type").asString()).isEqualTo("error");
            assertThat(error.get("error_code").asString()).isEqualTo("AI_ERROR");
            assertThat(error.get("details").get("fix").asString()).isNotBlank();
            assertThat(events)
                    .extracting(event -> event.get("event_type").asString())
                    .doesNotContain("message_stream_ended");

            JsonNode messages = messages(chatId);
            assertThat(messages).hasSize(1);
            assertThat(messages.get(0).get("sender_role").asString()).isEqualTo("user");

            assertThat(socket.isOpen()).isTrue();
            socket.sendContent("and now without failing");
            Reply reply = Reply.of(socket.awaitReplyEnd());
            assertThat(reply.ended().get("content").asString()).isEqualTo(reply.tokenText());
        }
        assertThat(messages(chatId)).hasSize(3);
    }

    static void assertInvalidMessage(JsonNode event) {
        assertThat(event.get("event_type").asString()).isEqualTo("error");
        assertThat(event.get("error_code").asString()).isEqualTo("INVALID_MESSAGE");
        assertThat(event.get("details").get("fix").asString()).isNotBlank();
    }

    static void assertStrictlyIncreasingSeq(List<JsonNode> events) {
        long previous = 0;
        for (JsonNode event : events) {
            long seq = event.get("seq").asLong();
            assertThat(seq).as("seq of %s", event).isGreaterThan(previous);
            previous = seq;
        }
    }

    String createChat(String userId) {
        Api.Reply reply = api.post("/api/v1/chats", Api.JSON.writeValueAsString(Map.of("user_id", userId)));
        assertThat(reply.status()).isEqualTo(201);
        return reply.json().get("id").asString();
    }

    JsonNode messages(String chatId) {
        Api.Reply reply = api.get("/api/v1/chats/" + chatId + "/messages?limit=100");
        assertThat(reply.status()).isEqualTo(200);
        return reply.json().get("messages");
    }

    /** A connection of a user the tenant knows, whose connection_established has been read. */
    ChatSocket connected(String userId, String chatId) {
        ChatSocket socket = tenant.socket(userId, chatId);
        JsonNode first = socket.next();
        assertThat(first.get("event_type").asString()).as("%s", first).isEqualTo("connection_established");
        return socket;
    }

    /** A connection of a user new to the tenant, whose connection_established and user_created have been read. */
    ChatSocket joined(String userId, String chatId) {
        ChatSocket socket = connected(userId, chatId);
        JsonNode created = socket.next();
        assertThat(created.get("event_type").asString()).as("%s", created).isEqualTo("user_created");
        return socket;
    }

    /** The events of one frame: message_received, message_stream_started, tokens, message_stream_ended. */
    record Reply(JsonNode received, JsonNode started, List<JsonNode> tokens, JsonNode ended) {

        static Reply of(List<JsonNode> events) {
            assertThat(events)
                    .extracting(event -> event.get("event_type").asString())
                    .as("event types")
                    .startsWith("message_received", "message_stream_started")
                    .endsWith("message_stream_ended");
            List<JsonNode> tokens = events.subList(2, events.size() - 1);
            assertThat(tokens)
                    .extracting(event -> event.get("event_type").asString())
                    .containsOnly("message_stream_token");
            assertStrictlyIncreasingSeq(events);
            Reply reply = new Reply(events.getFirst(), events.get(1), tokens, events.getLast());
            assertThat(reply.started().get("message_id").asString()).isNotBlank();
            assertThat(reply.ended().get("message_id").asString()).isEqualTo(reply.messageId());
            return reply;
        }

        String messageId() {
            return started.get("message_id").asString();
        }

        String tokenText() {
            StringBuilder text = new StringBuilder();
            tokens.forEach(token -> text.append(token.get("token").asString()));
            return text.toString();
        }
    }
}
