package com.chatreview.conversation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.chatreview.assistant.AssistantFailure;
import com.chatreview.assistant.AssistantReply;
import com.chatreview.chat.ChatId;
import com.chatreview.chat.NewMessage;
import com.chatreview.support.Api;
import com.chatreview.support.ChatSocket;
import com.chatreview.support.IntegrationTest;
import com.chatreview.support.TestTenant;
import com.chatreview.tenancy.TenantId;
import com.chatreview.usage.UsageKind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.JsonNode;

/**
 * The conversation module through its own API, with the WebSocket only as a listener: what a question's asker is
 * told and what the chat's listeners get ({@link Conversations}), and how a service turn holds the chat's lane,
 * ends after its answer's commit, and tells the chat why when it has no answer ({@link ServiceTurns},
 * {@link OpenTurn}).
 */
@IntegrationTest
class ConversationTests {

    static final Duration PATIENCE = Duration.ofSeconds(20);

    @Autowired
    Conversations conversations;

    @Autowired
    ServiceTurns turns;

    @Autowired
    PlatformTransactionManager transactions;

    TestTenant tenant;
    Api chats;
    String chatId;

    @BeforeEach
    void aChat(TestTenant tenant) {
        this.tenant = tenant;
        chats = tenant.chats();
        chatId = chats.post("/api/v1/chats", "{\"user_id\": \"student-1\"}")
                .json()
                .get("id")
                .asString();
    }

    @Test
    void aQuestionIsStoredAndAnsweredToEveryListenerAndTheAskerIsToldNothingMore() {
        RecordingAsker asker = asker("student-1");
        try (ChatSocket listener = listen()) {
            assertThat(conversations.ask(asker, new Question("What is a fraction?", Map.of("k", 1), "q-1"), 5))
                    .isTrue();

            JsonNode received = listener.awaitEvent("message_received");
            List<JsonNode> reply = listener.awaitReplyEnd();

            assertThat(received.get("content").asString()).isEqualTo("What is a fraction?");
            assertThat(received.get("client_message_id").asString()).isEqualTo("q-1");
            assertThat(reply.getFirst().get("event_type").asString()).isEqualTo("message_stream_started");
            assertThat(reply.getLast().get("event_type").asString()).isEqualTo("message_stream_ended");
            assertThat(reply.getLast().get("content").asString()).contains("not a language model");
        }
        assertThat(asker.told).isEmpty();
        assertThat(asker.refused).isEmpty();
        assertThat(messages()).hasSize(2);
    }

    @Test
    void aRepeatedQuestionIsAcknowledgedToItsAskerAloneAndStoredOnce() throws InterruptedException {
        RecordingAsker asker = asker("student-1");
        conversations.ask(asker, new Question("Once", Map.of(), "same-id"), 5);
        conversations.ask(asker, new Question("Once", Map.of(), "same-id"), 5);
        assertThat(conversations.awaitIdle(PATIENCE)).isTrue();

        assertThat(asker.told).singleElement().isInstanceOf(ServerEvent.MessageReceived.class);
        ServerEvent.MessageReceived repeat = (ServerEvent.MessageReceived) asker.told.getFirst();
        assertThat(repeat.clientMessageId()).isEqualTo("same-id");
        assertThat(messages()).hasSize(2);
        assertThat(messages().get(0).get("id").asString())
                .isEqualTo(repeat.messageId().toString());
    }

    @Test
    void aClosedChatRefusesTheAskerAndStoresNothing() throws InterruptedException {
        assertThat(chats.patch("/api/v1/chats/" + chatId, "{\"status\": \"closed\"}")
                        .status())
                .isEqualTo(200);
        RecordingAsker asker = asker("student-1");

        conversations.ask(asker, new Question("Anyone there?", Map.of(), null), 5);
        assertThat(conversations.awaitIdle(PATIENCE)).isTrue();

        assertThat(asker.refused)
                .singleElement()
                .satisfies(error -> assertThat(error.errorCode()).isEqualTo("CHAT_CLOSED"));
        assertThat(messages()).isEmpty();
    }

    @Test
    void aQuestionWhoseAskerLeftBeforeItsTurnIsDroppedUnstored() throws InterruptedException {
        RecordingAsker gone = asker("student-1");
        gone.present = false;

        assertThat(conversations.ask(gone, new Question("Still there?", Map.of(), null), 5))
                .isTrue();
        assertThat(conversations.awaitIdle(PATIENCE)).isTrue();

        assertThat(gone.told).isEmpty();
        assertThat(gone.refused).isEmpty();
        assertThat(messages()).isEmpty();
    }

    @Test
    void aServiceTurnHoldsTheLaneUntilClosedAndTheChatGetsItsAnswerAfterTheCommit() throws Exception {
        try (ChatSocket listener = listen()) {
            ServiceTurn turn = serviceTurn("the service asks");
            try (OpenTurn open = turns.open(turn).orElseThrow()) {
                JsonNode started = listener.awaitEvent("message_stream_started");
                conversations.ask(asker("student-1"), new Question("Meanwhile?", Map.of(), null), 5);
                open.token("An ");
                open.token("answer.");
                new TransactionTemplate(transactions).executeWithoutResult(status -> {
                    open.store(reply("An answer."));
                    pause(Duration.ofMillis(300));
                    assertThat(listener.received())
                            .as("nothing is ended before the commit")
                            .noneMatch(
                                    event -> event.get("event_type").asString().equals("message_stream_ended"));
                });
                JsonNode ended = listener.awaitEvent("message_stream_ended");
                assertThat(ended.get("message_id").asString())
                        .isEqualTo(started.get("message_id").asString());
                assertThat(ended.get("content").asString()).isEqualTo("An answer.");
                assertThat(listener.poll(Duration.ofMillis(300)))
                        .as("the client's question waits for the lane the turn holds")
                        .isNull();
            }
            JsonNode next = listener.awaitEvent("message_received");
            assertThat(next.get("content").asString()).isEqualTo("Meanwhile?");
            listener.awaitEvent("message_stream_ended");
        }
        assertThat(messages())
                .extracting(message -> message.get("content").asString())
                .startsWith("the service asks", "An answer.", "Meanwhile?");
    }

    @Test
    void aServiceTurnWhoseAssistantFailedTellsTheChatAndKeepsOnlyTheQuestion() throws Exception {
        try (ChatSocket listener = listen()) {
            try (OpenTurn open = turns.open(serviceTurn("please review")).orElseThrow()) {
                JsonNode started = listener.awaitEvent("message_stream_started");
                open.token("Half ");
                open.failed(new AssistantFailure("the provider hung up"));

                errorNaming(listener, started, "AI_ERROR");
            }
            assertThat(listener.poll(Duration.ofMillis(300)))
                    .as("closing a failed turn tells nothing more")
                    .isNull();
        }
        assertOnlyTheQuestionKept("please review");
    }

    @Test
    void aServiceTurnClosedWithoutItsAnswerIsAnInternalErrorToTheChat() throws Exception {
        try (ChatSocket listener = listen()) {
            turns.open(serviceTurn("forgotten")).orElseThrow().close();

            JsonNode started = listener.awaitEvent("message_stream_started");
            assertThat(errorNaming(listener, started, "INTERNAL_ERROR")
                            .get("error_message")
                            .asString())
                    .as("nothing of an answer was whole: it was never being stored")
                    .isEqualTo("No reply could be written; the question is stored");
        }
    }

    @Test
    void anAnswerWhoseStoringFailedIsAnInternalErrorNamingItsMessage() throws Exception {
        try (ChatSocket listener = listen()) {
            try (OpenTurn open = turns.open(serviceTurn("store this")).orElseThrow()) {
                JsonNode started = listener.awaitEvent("message_stream_started");
                open.token("A ");
                // PostgreSQL's text holds no NUL character: the INSERT fails, the database itself is fine
                assertThatThrownBy(() -> new TransactionTemplate(transactions)
                                .executeWithoutResult(status -> open.store(reply("A \u0000 answer."))))
                        .isInstanceOf(RuntimeException.class);

                assertThat(errorNaming(listener, started, "INTERNAL_ERROR")
                                .get("error_message")
                                .asString())
                        .as("the answer was whole and being stored")
                        .isEqualTo("The reply could not be stored; the question is stored");
            }
            assertThat(listener.poll(Duration.ofMillis(300)))
                    .as("closing a failed turn tells nothing more")
                    .isNull();
        }
        assertOnlyTheQuestionKept("store this");
    }

    @Test
    void anAnswerIsStoredOnlyInTheCallersTransaction() throws Exception {
        try (OpenTurn open = turns.open(serviceTurn("outside")).orElseThrow()) {
            assertThatThrownBy(() -> open.store(reply("no transaction")))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("transaction");
        }
        assertThat(messages()).hasSize(1);
    }

    @Test
    void aServiceTurnOnAChatThatIsGoneIsNotOpened() throws InterruptedException {
        ServiceTurn turn = new ServiceTurn(
                tenant.tenantId(),
                ChatId.random(),
                "student-1",
                NewMessage.fromUser("nobody reads this", Map.of(), null),
                UsageKind.REVIEW);

        assertThat(turns.open(turn)).isEqualTo(Optional.empty());
    }

    private ServiceTurn serviceTurn(String question) {
        return new ServiceTurn(
                tenant.tenantId(),
                ChatId.of(UUID.fromString(chatId)),
                "student-1",
                NewMessage.fromUser(question, Map.of("user_id", "student-1"), null),
                UsageKind.REVIEW);
    }

    private static void pause(Duration duration) {
        try {
            Thread.sleep(duration);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static AssistantReply reply(String content) {
        return new AssistantReply(content, "test", "test-model", "stop", new AssistantReply.Usage(3, 2, 5, false));
    }

    private ChatSocket listen() {
        ChatSocket socket = tenant.socket("teacher-1", chatId);
        socket.awaitEvent("connection_established");
        return socket;
    }

    /** The chat's next error event: of {@code code}, naming the message id its stream started with. */
    private static JsonNode errorNaming(ChatSocket listener, JsonNode started, String code) {
        JsonNode error = listener.awaitEvent("error");
        assertThat(error.get("error_code").asString()).isEqualTo(code);
        assertThat(error.get("details").get("message_id").asString())
                .isEqualTo(started.get("message_id").asString());
        return error;
    }

    /** The turn's question is in the chat's history, and nothing of its answer. */
    private void assertOnlyTheQuestionKept(String question) {
        assertThat(messages())
                .singleElement()
                .satisfies(
                        message -> assertThat(message.get("content").asString()).isEqualTo(question));
    }

    private List<JsonNode> messages() {
        JsonNode page =
                chats.get("/api/v1/chats/" + chatId + "/messages?limit=100").json();
        List<JsonNode> found = new ArrayList<>();
        page.get("messages").forEach(found::add);
        return found;
    }

    private RecordingAsker asker(String userId) {
        return new RecordingAsker(tenant.tenantId(), ChatId.of(UUID.fromString(chatId)), userId);
    }

    /** An asker that records what it is told. */
    static final class RecordingAsker implements Asker {

        final TenantId tenantId;
        final ChatId chatId;
        final String userId;
        final List<ServerEvent> told = new CopyOnWriteArrayList<>();
        final List<ServerEvent.Error> refused = new CopyOnWriteArrayList<>();
        volatile boolean present = true;

        RecordingAsker(TenantId tenantId, ChatId chatId, String userId) {
            this.tenantId = tenantId;
            this.chatId = chatId;
            this.userId = userId;
        }

        @Override
        public TenantId tenantId() {
            return tenantId;
        }

        @Override
        public ChatId chatId() {
            return chatId;
        }

        @Override
        public String userId() {
            return userId;
        }

        @Override
        public boolean present() {
            return present;
        }

        @Override
        public void tell(ServerEvent event) {
            told.add(event);
        }

        @Override
        public void refuse(ServerEvent.Error error) {
            refused.add(error);
        }
    }
}
