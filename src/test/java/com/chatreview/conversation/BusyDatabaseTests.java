package com.chatreview.conversation;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.support.Api;
import com.chatreview.support.ChatSocket;
import com.chatreview.support.ServiceProcess;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Every connection of the pool is taken, for longer than a request may wait for one, while replies end and
 * questions arrive (issue 54, item 1): a reply a student was streamed is stored all the same, once a connection is
 * free, and a burst of questions is stored in turn, none refused. The pool is exhausted for real: the test locks the
 * table the writes need, so that the first few hold every connection while they wait on the lock and the rest get
 * none within {@code DATABASE_CONNECTION_TIMEOUT}. The service runs in its own JVM on a PostgreSQL the test owns.
 */
@Tag("process")
class BusyDatabaseTests {

    static final int POOL_SIZE = 4;
    static final int CHATS = 4 * POOL_SIZE;
    /** How long the table stays locked once the pool is exhausted: several connection timeouts. */
    static final Duration EXHAUSTED_FOR = Duration.ofMillis(2000);

    @AutoClose
    static ServiceProcess service;

    static String apiKey;
    final List<ChatSocket> sockets = new ArrayList<>();

    @BeforeAll
    static void prepare() throws IOException, InterruptedException {
        service = ServiceProcess.onOwnPostgres(
                "busy-database",
                Map.of(
                        "DATABASE_POOL_SIZE",
                        Integer.toString(POOL_SIZE),
                        "DATABASE_CONNECTION_TIMEOUT",
                        "250ms",
                        // long enough a reply that the lock is taken while every chat's is streaming
                        "ASSISTANT_OFFLINETOKENDELAY",
                        "20ms",
                        "RATE_LIMIT_REST_PER_MINUTE",
                        "10000"));
        service.start();
        apiKey = service.newTenant("busy database");
    }

    @AfterEach
    void closeSockets() {
        sockets.forEach(ChatSocket::close);
        sockets.clear();
    }

    @Test
    void repliesEndingWhileNoConnectionIsFreeAreAllStored() throws Exception {
        List<String> chatIds = openChats("streamed");
        double retriedBefore = writesRetried();
        try (Connection locker = connect()) {
            for (ChatSocket socket : sockets) {
                socket.sendContent("Explain recursion with an example, please.");
            }
            for (ChatSocket socket : sockets) {
                socket.awaitEvent("message_stream_started");
            }
            try (Statement lock = locker.createStatement()) {
                // every reply's usage is recorded in the transaction that stores it: each waits here, holding
                // its connection, and the replies after them get none
                lock.execute("LOCK TABLE ai_usage IN EXCLUSIVE MODE");
            }
            awaitPoolExhausted();
            locker.commit();
        }

        assertEveryReplyStoredAsStreamed(chatIds);
        assertThat(usageRecords(chatIds)).as("each reply counted once").isEqualTo(CHATS);
        assertThat(writesRetried())
                .as("some replies found no free connection and waited")
                .isGreaterThan(retriedBefore);
    }

    @Test
    void aBurstOfMessagesWhileNoConnectionIsFreeIsStoredInTurn() throws Exception {
        List<String> chatIds = openChats("burst");
        double retriedBefore = writesRetried();
        try (Connection locker = connect()) {
            try (Statement lock = locker.createStatement()) {
                // reads go on; every message's insert waits here, holding its connection
                lock.execute("LOCK TABLE messages IN SHARE MODE");
            }
            for (ChatSocket socket : sockets) {
                socket.sendContent("What is a closure?");
            }
            awaitPoolExhausted();
            locker.commit();
        }

        for (ChatSocket socket : sockets) {
            assertThat(socket.awaitEvent("message_received", Duration.ofSeconds(60))
                            .get("content")
                            .asString())
                    .isEqualTo("What is a closure?");
        }
        assertEveryReplyStoredAsStreamed(chatIds);
        assertThat(writesRetried())
                .as("some messages found no free connection and waited")
                .isGreaterThan(retriedBefore);
    }

    private List<String> openChats(String title) {
        Api chats = new Api(service.port()).with("X-API-Key", apiKey);
        List<String> chatIds = new ArrayList<>();
        for (int i = 0; i < CHATS; i++) {
            Api.Reply created = chats.post("/api/v1/chats", "{\"user_id\": \"student-" + i + "\"}");
            assertThat(created.status()).as(created.toString()).isEqualTo(201);
            String chatId = created.json().get("id").asString();
            chatIds.add(chatId);
            ChatSocket socket = ChatSocket.connect(service.port(), apiKey, "student-" + i, chatId);
            sockets.add(socket);
            socket.awaitEvent("connection_established");
        }
        return chatIds;
    }

    /**
     * Holds the lock until every pooled connection waits on it, then for several connection timeouts more: the
     * service's other writes meanwhile find no free connection.
     */
    private static void awaitPoolExhausted() throws InterruptedException, SQLException {
        // watched from outside the locking transaction, whose view of the sessions stays as it first read it
        try (Connection watcher = service.postgres().connect()) {
            Instant deadline = Instant.now().plusSeconds(60);
            while (waitingOnALock(watcher) < POOL_SIZE) {
                if (Instant.now().isAfter(deadline)) {
                    throw new AssertionError(
                            "The pool's connections never all waited on the lock: " + sessions(watcher));
                }
                Thread.sleep(20);
            }
        }
        Thread.sleep(EXHAUSTED_FOR.toMillis());
    }

    /**
     * Each chat's socket got its reply's end with what it was streamed, and no error; the chat's history holds the
     * question and that reply.
     */
    private void assertEveryReplyStoredAsStreamed(List<String> chatIds) {
        Api chats = new Api(service.port()).with("X-API-Key", apiKey);
        for (int i = 0; i < CHATS; i++) {
            ChatSocket socket = sockets.get(i);
            JsonNode ended = socket.awaitEvent("message_stream_ended", Duration.ofSeconds(60));
            String replyId = ended.get("message_id").asString();
            String streamed = socket.received().stream()
                    .filter(event -> event.get("event_type").asString().equals("message_stream_token"))
                    .filter(event -> event.get("message_id").asString().equals(replyId))
                    .map(event -> event.get("token").asString())
                    .collect(Collectors.joining());
            assertThat(ended.get("content").asString()).isNotBlank().isEqualTo(streamed);
            assertThat(socket.received())
                    .as("no error on chat %d", i)
                    .noneMatch(event -> event.get("event_type").asString().equals("error"));

            JsonNode history = chats.get("/api/v1/chats/" + chatIds.get(i) + "/messages")
                    .json()
                    .get("messages");
            assertThat(history).hasSize(2);
            List<String> replies = new ArrayList<>();
            history.forEach(message -> {
                if (message.get("sender_role").asString().equals("assistant")) {
                    assertThat(message.get("id").asString()).isEqualTo(replyId);
                    replies.add(message.get("content").asString());
                }
            });
            assertThat(replies).containsExactly(streamed);
        }
    }

    private static int waitingOnALock(Connection watcher) throws SQLException {
        try (Statement waiting = watcher.createStatement();
                ResultSet rows = waiting.executeQuery("SELECT count(*) FROM pg_stat_activity"
                        + " WHERE wait_event_type = 'Lock' AND pid <> pg_backend_pid()")) {
            rows.next();
            return rows.getInt(1);
        }
    }

    private static List<String> sessions(Connection watcher) throws SQLException {
        List<String> sessions = new ArrayList<>();
        try (Statement statement = watcher.createStatement();
                ResultSet rows = statement.executeQuery("SELECT state, wait_event_type, wait_event, left(query, 120)"
                        + " FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND backend_type = 'client backend'")) {
            while (rows.next()) {
                sessions.add(rows.getString(1) + "/" + rows.getString(2) + "/" + rows.getString(3) + ": "
                        + rows.getString(4));
            }
        }
        return sessions;
    }

    private static Connection connect() throws SQLException {
        Connection connection = service.postgres().connect();
        connection.setAutoCommit(false);
        return connection;
    }

    private static long usageRecords(List<String> chatIds) throws SQLException {
        try (Connection connection = service.postgres().connect();
                PreparedStatement statement =
                        connection.prepareStatement("SELECT count(*) FROM ai_usage WHERE chat_id::text = ANY (?)")) {
            statement.setArray(1, connection.createArrayOf("text", chatIds.toArray()));
            try (ResultSet rows = statement.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }

    /** The service's count of writes tried again for want of a connection (or of the database). */
    private static double writesRetried() {
        Api.Reply scrape = new Api(service.port()).get("/actuator/prometheus");
        assertThat(scrape.status()).isEqualTo(200);
        return scrape.text()
                .lines()
                .filter(line -> line.startsWith("database_writes_retried_total"))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                .sum();
    }
}
