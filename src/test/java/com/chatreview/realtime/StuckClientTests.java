package com.chatreview.realtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.support.Api;
import com.chatreview.support.ChatSocket;
import com.chatreview.support.ServiceProcess;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * A client that stops reading while replies stream on its chat (issue 20 (d)), over a real socket whose receive
 * window it keeps small and never drains: the service drops it once its send buffer or send time limit is past,
 * while the chat's other connection gets every event of every reply in order, without delay, and every reply is
 * stored. Not an {@code *IntegrationTests} class: the service runs in its own JVM with a small send buffer.
 */
@Tag("process")
class StuckClientTests {

    static final int MAX_REPLIES = 200;

    /**
     * Far above what a reply takes here, so that a reply held up by a write to the stuck client stands apart from one
     * slowed down by a loaded machine (the client is dropped when its send buffer is full, long before).
     */
    static final Duration SEND_TIME_LIMIT = Duration.ofSeconds(10);

    static ServiceProcess service;

    @BeforeAll
    static void prepare() throws IOException, InterruptedException {
        service = new ServiceProcess(
                "stuck-client",
                Map.of(
                        "REALTIME_SENDBUFFER", "16KB",
                        // a write to the stuck client would hold its caller this long: longer than any reply here
                        "REALTIME_SENDTIMELIMIT", SEND_TIME_LIMIT.toSeconds() + "s",
                        "ASSISTANT_OFFLINETOKENDELAY", "0ms",
                        // the asker and the stuck client: a third connection gets in only once one has gone
                        "LIMIT_WS_CONNECTIONS_PER_TENANT", "2",
                        "RATE_LIMIT_WS_MESSAGES_PER_SECOND", "1000",
                        "RATE_LIMIT_REST_PER_MINUTE", "10000"));
        service.start();
    }

    @AfterAll
    static void stopEverything() throws IOException {
        service.close();
    }

    @Test
    void aClientThatStopsReadingIsDroppedAndHoldsUpNeitherTheChatNorItsReplies() throws Exception {
        int port = service.port();
        String apiKey = service.newTenant("stuck");
        Api api = new Api(port).with("X-API-Key", apiKey);
        String chatId = api.post("/api/v1/chats", "{\"user_id\": \"student\"}")
                .json()
                .get("id")
                .asString();

        try (ChatSocket asker = ChatSocket.connect(port, apiKey, "student", chatId);
                Socket stuck = stuckClient(port, apiKey, chatId)) {
            asker.awaitEvent("connection_established");
            assertThat(thirdConnectionAdmitted(port, apiKey, chatId))
                    .as("two connections are the tenant's limit while the stuck one is open")
                    .isFalse();

            int replies = 0;
            boolean dropped = false;
            while (!dropped && replies < MAX_REPLIES) {
                Instant asked = Instant.now();
                asker.sendContent("Explain recursion with an example, in detail, please (" + replies + ")");
                List<JsonNode> events = asker.awaitReplyEnd();
                replies++;
                assertThat(events.getLast().get("event_type").asString())
                        .as("the reply streamed to the reading connection: %s", events.getLast())
                        .isEqualTo("message_stream_ended");
                // a reply streams at once (no token delay); one that waited for a write to the stuck client would
                // take the send time limit: the bound tells the two apart with room for a loaded machine
                assertThat(Duration.between(asked, Instant.now()))
                        .as("a reply is not held up by the connection that does not read")
                        .isLessThan(SEND_TIME_LIMIT.minusSeconds(2));
                if (replies % 10 == 0) {
                    dropped = thirdConnectionAdmitted(port, apiKey, chatId);
                }
            }
            assertThat(dropped)
                    .as("the stuck connection dropped within %d replies", MAX_REPLIES)
                    .isTrue();
            assertThat(endedByServer(stuck))
                    .as("the stuck client's socket ends")
                    .isTrue();

            long[] seqs = asker.received().stream()
                    .filter(event -> event.has("seq"))
                    .mapToLong(event -> event.get("seq").asLong())
                    .toArray();
            for (int i = 1; i < seqs.length; i++) {
                assertThat(seqs[i]).as("events in order").isGreaterThan(seqs[i - 1]);
            }
            assertThat(api.get("/api/v1/chats/" + chatId)
                            .json()
                            .get("message_count")
                            .asLong())
                    .as("every question and every reply stored")
                    .isEqualTo(2L * replies);
        }
    }

    /**
     * A WebSocket client with a small receive window that reads the upgrade's answer and nothing after it: the
     * service's writes to it block once the window and the kernel's send buffer are full.
     */
    private static Socket stuckClient(int port, String apiKey, String chatId) throws IOException {
        Socket socket = new Socket();
        socket.setReceiveBufferSize(2048);
        socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
        String upgrade = "GET /ws/chat?api_key=" + apiKey + "&user_id=stuck&chat_id=" + chatId + " HTTP/1.1\r\n"
                + "Host: 127.0.0.1:" + port + "\r\n"
                + "Upgrade: websocket\r\n"
                + "Connection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                + "Sec-WebSocket-Version: 13\r\n\r\n";
        socket.getOutputStream().write(upgrade.getBytes(StandardCharsets.US_ASCII));
        socket.getOutputStream().flush();
        socket.setSoTimeout(10_000);
        InputStream in = socket.getInputStream();
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("The upgrade was not answered: " + head);
            }
            head.append((char) b);
        }
        assertThat(head.toString()).startsWith("HTTP/1.1 101");
        return socket;
    }

    /** Whether a third connection of the tenant is let in now (it is closed again at once). */
    private static boolean thirdConnectionAdmitted(int port, String apiKey, String chatId) {
        try (ChatSocket third = ChatSocket.connect(port, apiKey, "third", chatId)) {
            JsonNode first = third.next();
            if (first.get("event_type").asString().equals("connection_established")) {
                return true;
            }
            assertThat(first.get("error_code").asString()).isEqualTo("CONNECTION_LIMIT_EXCEEDED");
            return false;
        }
    }

    /** Reads what the kernel still holds for the stuck client: the service has ended the connection if it ends. */
    private static boolean endedByServer(Socket socket) throws IOException {
        socket.setSoTimeout(10_000);
        byte[] buffer = new byte[65_536];
        try {
            while (socket.getInputStream().read(buffer) >= 0) {
                // drained
            }
            return true;
        } catch (SocketTimeoutException stillOpen) {
            return false;
        } catch (IOException reset) {
            return true;
        }
    }
}
