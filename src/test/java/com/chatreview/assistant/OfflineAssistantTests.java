package com.chatreview.assistant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.chatreview.assistant.Conversation.ContextDocument;
import com.chatreview.assistant.Conversation.Turn;
import com.chatreview.assistant.Conversation.Turn.Role;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class OfflineAssistantTests {

    private final OfflineAssistant assistant = new OfflineAssistant(Duration.ZERO);

    @Test
    void saysWhatItIsInItsFirstReplyOnly() {
        Conversation first = new Conversation(List.of(new Turn(Role.USER, "How do fractions add up?")), List.of());
        Conversation later = new Conversation(
                List.of(
                        new Turn(Role.USER, "How do fractions add up?"),
                        new Turn(Role.ASSISTANT, "something"),
                        new Turn(Role.USER, "And decimals?")),
                List.of());

        assertThat(assistant.compose(first))
                .startsWith(OfflineAssistant.INTRODUCTION)
                .contains("not a language model");
        assertThat(assistant.compose(later)).doesNotContain("not a language model");
    }

    @Test
    void streamsTheReplyWordByWordAndTheTokensMakeTheReply() {
        Conversation conversation =
                new Conversation(List.of(new Turn(Role.USER, "What is a prime number?")), List.of());
        List<String> tokens = new ArrayList<>();

        AssistantReply reply = assistant.reply(conversation, tokens::add);

        assertThat(tokens).hasSizeGreaterThan(10);
        assertThat(String.join("", tokens)).isEqualTo(reply.content());
        assertThat(tokens).allSatisfy(token -> assertThat(token.strip()).doesNotContainAnyWhitespaces());
        assertThat(reply.provider()).isEqualTo("offline");
        assertThat(reply.finishReason()).isEqualTo("stop");
        assertThat(reply.usage().completionTokens()).isEqualTo(tokens.size());
    }

    @Test
    void answersFromTheChatsOwnHistory() {
        Conversation conversation = new Conversation(
                List.of(
                        new Turn(Role.USER, "My homework is about photosynthesis in plants."),
                        new Turn(Role.ASSISTANT, "noted"),
                        new Turn(Role.USER, "Unrelated: what about the weather?"),
                        new Turn(Role.ASSISTANT, "noted"),
                        new Turn(Role.USER, "Which plants use photosynthesis?")),
                List.of());

        String reply = assistant.compose(conversation);

        assertThat(reply).contains("\"plants\"", "\"photosynthesis\"");
        assertThat(reply).contains("in message 1 you wrote: \"My homework is about photosynthesis in plants.\"");
        assertThat(reply).doesNotContain("weather");
    }

    @Test
    void quotesTheContextWithWhereItIs() {
        Conversation conversation = new Conversation(
                List.of(new Turn(Role.USER, "Why is recursion forbidden here?")),
                List.of(new ContextDocument(
                        "restriction", "rules.txt", "Use loops only.\nNo recursion allowed.\nNo imports.")));

        assertThat(assistant.compose(conversation)).contains("rules.txt, line 2: \"No recursion allowed.\"");
    }

    @Test
    void isDeterministic() {
        Conversation conversation = new Conversation(
                List.of(new Turn(Role.USER, "def f(x): return x * 2  # why does this double?")), List.of());

        assertThat(assistant.compose(conversation))
                .isEqualTo(assistant.compose(conversation))
                .contains("looks like code");
    }

    @Test
    void anInterruptedReplyFails() throws Exception {
        OfflineAssistant slow = new OfflineAssistant(Duration.ofMillis(50));
        Conversation conversation = new Conversation(List.of(new Turn(Role.USER, "Tell me about loops")), List.of());
        AtomicReference<Thread> worker = new AtomicReference<>();
        CompletableFuture<Throwable> failure = new CompletableFuture<>();
        CountDownLatch underWay = new CountDownLatch(1);
        Thread thread = Thread.ofVirtual().start(() -> {
            worker.set(Thread.currentThread());
            try {
                slow.reply(conversation, token -> underWay.countDown());
                failure.complete(null);
            } catch (Throwable e) {
                failure.complete(e);
            }
        });
        assertThat(underWay.await(20, TimeUnit.SECONDS)).isTrue();
        thread.interrupt();

        assertThat(failure.get()).isInstanceOf(AssistantFailure.class).hasMessageContaining("cancelled");
    }

    @Test
    void aConversationNeedsAMessage() {
        assertThatThrownBy(() -> new Conversation(List.of(), List.of())).isInstanceOf(IllegalArgumentException.class);
    }
}
