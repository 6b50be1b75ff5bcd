package com.chatreview.realtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.chatreview.chat.ChatId;
import com.chatreview.conversation.ChatEvent;
import com.chatreview.conversation.EventJson;
import com.chatreview.tenancy.TenantId;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.web.socket.CloseStatus;
import org.springframework.web.socket.TextMessage;
import org.springframework.web.socket.WebSocketSession;
import tools.jackson.databind.json.JsonMapper;

/** A client that stops reading holds up nobody: its events wait in its own outbox, and too many drop it. */
class ConnectionOutboxTests {

    final CountDownLatch clientReads = new CountDownLatch(1);
    final List<String> written = new CopyOnWriteArrayList<>();
    final CompletableFuture<CloseStatus> closed = new CompletableFuture<>();
    final WebSocketSession session = session();

    @Test
    void aClientThatDoesNotReadDoesNotHoldUpTheThreadThatDelivers() throws Exception {
        Connection connection = connection(1024 * 1024, Duration.ofMinutes(1));
        connection.startAfter(0);
        connection.goLive();

        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
            for (int seq = 1; seq <= 100; seq++) {
                connection.deliver(new ChatEvent(seq, "{\"seq\":" + seq + "}"));
            }
        });
        assertThat(closed).isNotDone();

        clientReads.countDown();
        for (int i = 0; i < 100 && written.size() < 100; i++) {
            Thread.sleep(20);
        }
        assertThat(written).hasSize(100);
        assertThat(written.getFirst()).isEqualTo("{\"seq\":1}");
        assertThat(written.getLast()).isEqualTo("{\"seq\":100}");
    }

    @Test
    void moreThanTheSendBufferWaitingDropsTheConnection() throws Exception {
        Connection connection = connection(10_000, Duration.ofMinutes(1));
        connection.startAfter(0);
        connection.goLive();

        String event = "x".repeat(1000);
        for (int seq = 1; seq <= 20; seq++) {
            connection.deliver(new ChatEvent(seq, event));
        }

        assertThat(closed.get(10, TimeUnit.SECONDS)).isEqualTo(CloseStatus.SESSION_NOT_RELIABLE);
        assertThat(connection.open()).isFalse();
    }

    /**
     * A resume from 0 of a chat whose history is many times the send buffer: sent as fast as the client reads, in
     * seq order with the reply in progress and the live events, and the connection stays.
     */
    @Test
    void aHistoryLargerThanTheSendBufferIsSentAsTheClientReadsIt() throws Exception {
        clientReads.countDown();
        Connection connection = connection(10_000, Duration.ofMinutes(1));
        connection.startAfter(0);
        connection.hold(List.of(event(50), event(60)));

        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
            for (int seq = 1; seq <= 200; seq++) {
                if (seq == 100) {
                    connection.deliver(event(201)); // live, while the connection catches up
                }
                if (seq != 50 && seq != 60) {
                    assertThat(connection.sendMissed(event(seq))).isTrue();
                }
            }
        });
        connection.goLive();
        connection.deliver(event(202));

        for (int i = 0; i < 200 && written.size() < 202; i++) {
            Thread.sleep(20);
        }
        assertThat(closed).isNotDone();
        assertThat(written).hasSize(202);
        for (int i = 0; i < 202; i++) {
            assertThat(written.get(i)).startsWith("{\"seq\":" + (i + 1) + ",");
        }
    }

    /** An event of about a kilobyte. */
    private static ChatEvent event(long seq) {
        return new ChatEvent(seq, "{\"seq\":" + seq + ",\"content\":\"" + "x".repeat(1000) + "\"}");
    }

    @Test
    void aWriteTakingLongerThanTheSendTimeLimitDropsTheConnectionAtTheNextSend() throws Exception {
        Connection connection = connection(1024 * 1024, Duration.ofMillis(100));
        connection.startAfter(0);
        connection.goLive();

        connection.deliver(new ChatEvent(1, "{}"));
        Thread.sleep(300);
        connection.deliver(new ChatEvent(2, "{}"));

        assertThat(closed.get(10, TimeUnit.SECONDS)).isEqualTo(CloseStatus.SESSION_NOT_RELIABLE);
    }

    private Connection connection(long sendBuffer, Duration sendTimeLimit) {
        Admission.Admitted admitted = new Admission.Admitted(
                TenantId.of(UUID.randomUUID()), UUID.randomUUID(), "student", ChatId.random(), null, 0, false);
        return new Connection(
                session, admitted, new EventJson(JsonMapper.builder().build()), sendBuffer, sendTimeLimit);
    }

    /** A session whose writes block until the client reads (never, unless the test says so). */
    private WebSocketSession session() {
        return (WebSocketSession) Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[] {WebSocketSession.class}, (proxy, method, args) -> {
                    switch (method.getName()) {
                        case "isOpen" -> {
                            return !closed.isDone();
                        }
                        case "sendMessage" -> {
                            clientReads.await();
                            if (args[0] instanceof TextMessage text) {
                                written.add(text.getPayload());
                            }
                            return null;
                        }
                        case "close" -> {
                            closed.complete(args == null ? CloseStatus.NORMAL : (CloseStatus) args[0]);
                            return null;
                        }
                        case "getId" -> {
                            return "test-session";
                        }
                        case "hashCode" -> {
                            return System.identityHashCode(proxy);
                        }
                        case "equals" -> {
                            return proxy == args[0];
                        }
                        case "toString" -> {
                            return "test session";
                        }
                        default -> {
                            return null;
                        }
                    }
                });
    }
}
