package com.chatreview.realtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.chatreview.chat.ChatId;
import com.chatreview.conversation.ChatEvent;
import com.chatreview.conversation.EventJson;
import com.chatreview.conversation.ServerEvent;
import com.chatreview.tenancy.TenantId;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.websocket.api.Callback;
import org.junit.jupiter.api.Test;
import org.springframework.web.socket.CloseStatus;
import tools.jackson.databind.json.JsonMapper;

/** A client that stops reading holds up nobody: its events wait in its own outbox, and too many drop it. */
class ConnectionOutboxTests {

    final Client client = new Client();
    final List<String> written = client.written;

    @Test
    void aClientThatDoesNotReadDoesNotHoldUpTheThreadThatDelivers() throws Exception {
        Connection connection = live(1024 * 1024, Duration.ofMinutes(1));

        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
            for (int seq = 1; seq <= 100; seq++) {
                connection.deliver(new ChatEvent(seq, "{\"seq\":" + seq + "}"));
            }
        });
        assertThat(client.disconnected).isNotDone();

        client.startsReading();
        for (int i = 0; i < 100 && written.size() < 100; i++) {
            Thread.sleep(20);
        }
        assertThat(written).hasSize(100);
        assertThat(written.getFirst()).isEqualTo("{\"seq\":1}");
        assertThat(written.getLast()).isEqualTo("{\"seq\":100}");
    }

    @Test
    void moreThanTheSendBufferWaitingDropsTheConnection() throws Exception {
        Connection connection = live(10_000, Duration.ofMinutes(1));

        String event = "x".repeat(1000);
        for (int seq = 1; seq <= 20; seq++) {
            connection.deliver(new ChatEvent(seq, event));
        }

        assertThat(client.disconnected.get(10, TimeUnit.SECONDS)).isTrue();
        assertThat(connection.open()).isFalse();
    }

    /**
     * A resume from 0 of a chat whose history is many times the send buffer: sent as fast as the client reads, in
     * seq order with the reply in progress and the live events, and the connection stays.
     */
    @Test
    void aHistoryLargerThanTheSendBufferIsSentAsTheClientReadsIt() throws Exception {
        client.startsReading();
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
        assertThat(client.disconnected).isNotDone();
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
        Connection connection = live(1024 * 1024, Duration.ofMillis(100));

        connection.deliver(new ChatEvent(1, "{}"));
        Thread.sleep(300);
        connection.deliver(new ChatEvent(2, "{}"));

        assertThat(client.disconnected.get(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void aClientThatReadsSlowlyButSteadilyStays() throws Exception {
        Connection connection = live(1024 * 1024, Duration.ofMillis(200));

        for (int seq = 1; seq <= 10; seq++) {
            connection.deliver(new ChatEvent(seq, "{}"));
            Thread.sleep(100);
            client.takesOne();
        }
        Thread.sleep(300);
        connection.deliver(new ChatEvent(11, "{}")); // nothing waited before it: the pause was the chat's

        assertThat(client.disconnected).isNotDone();
        assertThat(written).hasSize(10);
    }

    @Test
    void aCloseGoesAfterWhatWasSentBeforeAndIsWaitedFor() throws Exception {
        Connection connection = live(1024 * 1024, Duration.ofMinutes(1));
        connection.deliver(new ChatEvent(1, "{\"seq\":1}"));
        connection.sendDirect(new ServerEvent.UserCreated(Instant.EPOCH, "student"));

        connection.close(CloseStatus.NORMAL.withReason("idle"));
        connection.deliver(new ChatEvent(2, "{\"seq\":2}")); // after the close: not sent

        assertThat(connection.awaitWritten(Duration.ofMillis(100))).isFalse();
        client.startsReading();
        assertThat(connection.awaitWritten(Duration.ofSeconds(10))).isTrue();
        assertThat(written).hasSize(3);
        assertThat(written.get(0)).isEqualTo("{\"seq\":1}");
        assertThat(written.get(2)).isEqualTo("close 1000 idle");
    }

    @Test
    void aFailedWriteDropsTheConnection() throws Exception {
        Connection connection = live(1024 * 1024, Duration.ofMinutes(1));
        client.failsWrites = true;

        connection.deliver(new ChatEvent(1, "{}"));

        assertThat(client.disconnected.get(10, TimeUnit.SECONDS)).isTrue();
        assertThat(connection.open()).isFalse();
    }

    @Test
    void theSendBufferCountsBytesNotCharacters() throws Exception {
        Connection connection = live(3_000, Duration.ofMinutes(1));

        connection.deliver(new ChatEvent(1, "é".repeat(1_000))); // 2,000 bytes
        assertThat(client.disconnected).isNotDone();
        connection.deliver(new ChatEvent(2, "€".repeat(500))); // 1,500 bytes more: 3,500 wait

        assertThat(client.disconnected.get(10, TimeUnit.SECONDS)).isTrue();
    }

    /** A connection that has caught up: what is delivered now is sent. */
    private Connection live(long sendBuffer, Duration sendTimeLimit) {
        Connection connection = connection(sendBuffer, sendTimeLimit);
        connection.startAfter(0);
        connection.goLive();
        return connection;
    }

    private Connection connection(long sendBuffer, Duration sendTimeLimit) {
        Admission.Admitted admitted = new Admission.Admitted(
                TenantId.of(UUID.randomUUID()), UUID.randomUUID(), "student", ChatId.random(), null, 0, false);
        return new Connection(
                client, admitted, new EventJson(JsonMapper.builder().build()), sendBuffer, sendTimeLimit);
    }

    /**
     * A WebSocket whose client takes nothing until the test says so: frames wait in order, their callbacks untold,
     * as a server's queue holds what a client does not read.
     */
    static final class Client implements WebSocketSends {

        final List<String> written = new CopyOnWriteArrayList<>();
        final CompletableFuture<Boolean> disconnected = new CompletableFuture<>();
        private final List<Object[]> waiting = new ArrayList<>();
        private boolean reading;
        volatile boolean failsWrites;

        synchronized void startsReading() {
            reading = true;
            while (!waiting.isEmpty()) {
                takesOne();
            }
        }

        synchronized void takesOne() {
            if (!waiting.isEmpty()) {
                Object[] frame = waiting.removeFirst();
                written.add((String) frame[0]);
                ((Callback) frame[1]).succeed();
            }
        }

        private synchronized void queue(String frame, Callback sent) {
            if (failsWrites) {
                sent.fail(new IOException("Broken pipe"));
            } else if (reading) {
                written.add(frame);
                sent.succeed();
            } else {
                waiting.add(new Object[] {frame, sent});
            }
        }

        @Override
        public void text(String text, Callback sent) {
            queue(text, sent);
        }

        @Override
        public void ping(Callback sent) {
            queue("ping", sent);
        }

        @Override
        public void close(CloseStatus status, Callback sent) {
            queue("close " + status.getCode() + " " + status.getReason(), sent);
        }

        @Override
        public void disconnect() {
            disconnected.complete(true);
        }

        @Override
        public boolean isOpen() {
            return !disconnected.isDone();
        }
    }
}
