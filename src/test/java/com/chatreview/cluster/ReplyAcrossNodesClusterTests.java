package com.chatreview.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.support.Api;
import com.chatreview.support.ChatSocket;
import com.chatreview.support.Cluster;
import com.chatreview.support.Eventually;
import com.chatreview.support.RequiresCluster;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;

/**
 * A reply belongs to the chat, not to the node streaming it: a client resumes it on any node (docs/decisions.md,
 * docs/cluster.md).
 */
@Tag("cluster")
@ExtendWith(RequiresCluster.class)
class ReplyAcrossNodesClusterTests {

    /** Slow enough that a reply (some 60 words) streams for seconds. */
    static final String TOKEN_DELAY = "50ms";

    /** How long a client is away before it resumes: several tokens' time. */
    static final long TOKENS_WHILE_AWAY = 600;

    /** How long a node's hold on its chat's turn and reply outlives its last renewal. */
    static final Duration LEASE = Duration.ofSeconds(3);

    static Cluster cluster;

    @BeforeAll
    static void start() throws Exception {
        cluster = Cluster.start(
                "reply-across-nodes",
                2,
                Map.of("ASSISTANT_OFFLINETOKENDELAY", TOKEN_DELAY, "REALTIME_LANE_LEASE", LEASE.toSeconds() + "s"));
    }

    @AfterAll
    static void stop() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void aClientResumesOnTheOtherNodeWhatTheFirstIsStillStreaming() throws InterruptedException {
        String apiKey = cluster.newTenant("resume-elsewhere");
        Api api = cluster.node(1).api().with("X-API-Key", apiKey);
        String chatId = Cluster.newChat(api, "student");

        List<JsonNode> before = new ArrayList<>();
        try (ChatSocket onNode1 = ChatSocket.connect(cluster.node(1).port(), apiKey, "student", chatId)) {
            onNode1.awaitEvent("connection_established");
            onNode1.sendContent("What is a list comprehension?");
            before.add(onNode1.awaitEvent("message_received"));
            before.add(onNode1.awaitEvent("message_stream_started"));
            for (int i = 0; i < 3; i++) {
                before.add(onNode1.awaitEvent("message_stream_token"));
            }
            onNode1.abort();
        }
        Thread.sleep(TOKENS_WHILE_AWAY); // tokens stream on while the client is away
        long resumeFrom = before.getLast().get("seq").asLong();

        try (ChatSocket onNode2 = ChatSocket.to(cluster.node(2).port())
                .query("api_key", apiKey)
                .query("user_id", "student")
                .query("chat_id", chatId)
                .query("resume_from", Long.toString(resumeFrom))
                .connect()) {
            JsonNode established = onNode2.awaitEvent("connection_established");
            assertThat(established.get("last_seq").asLong())
                    .as("the chat's latest seq, given out by the other node")
                    .isGreaterThanOrEqualTo(resumeFrom);
            List<JsonNode> after = onNode2.awaitReplyEnd();

            List<JsonNode> all = new ArrayList<>(before);
            all.addAll(after);
            long seq = all.getFirst().get("seq").asLong();
            for (JsonNode event : all.subList(1, all.size())) {
                assertThat(event.get("seq").asLong())
                        .as(
                                "no event missed or repeated across the nodes: %s",
                                all.stream().map(e -> e.get("seq").asLong()).toList())
                        .isEqualTo(++seq);
            }
            JsonNode ended = after.getLast();
            assertThat(ended.get("event_type").asString()).isEqualTo("message_stream_ended");
            StringBuilder streamed = new StringBuilder();
            all.stream()
                    .filter(event -> event.get("event_type").asString().equals("message_stream_token"))
                    .forEach(token -> streamed.append(token.get("token").asString()));
            assertThat(streamed.toString())
                    .as("the tokens of both nodes make the stored reply")
                    .isEqualTo(ended.get("content").asString());
        }
    }

    @Test
    void aReplyWhoseNodeIsKilledIsAnsweredOnceByTheOther() throws Exception {
        String apiKey = cluster.newTenant("takeover");
        Api api = cluster.node(2).api().with("X-API-Key", apiKey);
        String chatId = Cluster.newChat(api, "student");
        try (ChatSocket watching = ChatSocket.connect(cluster.node(2).port(), apiKey, "teacher", chatId);
                ChatSocket asking = ChatSocket.connect(cluster.node(1).port(), apiKey, "student", chatId)) {
            watching.awaitEvent("connection_established");
            asking.awaitEvent("connection_established");
            asking.sendContent("What is a list comprehension?");
            List<JsonNode> seen = new ArrayList<>();
            seen.add(watching.awaitEvent("message_received"));
            JsonNode abandoned = watching.awaitEvent("message_stream_started");
            seen.add(abandoned);
            for (int i = 0; i < 3; i++) {
                seen.add(watching.awaitEvent("message_stream_token"));
            }

            cluster.node(1).kill();
            Instant killed = Instant.now();
            List<JsonNode> before = asking.received();
            long askerSaw = before.getLast().get("seq").asLong();
            // the asker's node is gone: it comes back on the other node, before the reply is taken over
            ChatSocket resumed = ChatSocket.to(cluster.node(2).port())
                    .query("api_key", apiKey)
                    .query("user_id", "student")
                    .query("chat_id", chatId)
                    .query("resume_from", Long.toString(askerSaw))
                    .connect();
            Instant interrupted = null;
            while (true) {
                JsonNode event = watching.next(Duration.ofSeconds(60));
                seen.add(event);
                String type = event.get("event_type").asString();
                if (type.equals("error") && interrupted == null) {
                    interrupted = Instant.now();
                }
                if (type.equals("message_stream_ended")) {
                    break;
                }
            }

            List<String> types = seen.stream()
                    .map(event -> event.get("event_type").asString())
                    .toList();
            int error = types.indexOf("error");
            assertThat(error)
                    .as("the abandoned stream ends with an error: %s", types)
                    .isPositive();
            JsonNode told = seen.get(error);
            assertThat(told.get("error_code").asString()).isEqualTo("REPLY_INTERRUPTED");
            assertThat(told.get("details").get("message_id").asString())
                    .isEqualTo(abandoned.get("message_id").asString());
            assertThat(Duration.between(killed, interrupted))
                    .as("taken over within a lease and a third of the last renewal")
                    .isLessThan(LEASE.plus(LEASE.dividedBy(3)).plusSeconds(3));
            assertThat(types.subList(1, error)).allMatch(type -> type.startsWith("message_stream_"));
            assertThat(types.get(error + 1)).isEqualTo("message_stream_started");
            assertThat(types.subList(error + 2, types.size() - 1)).containsOnly("message_stream_token");
            String answer = seen.get(error + 1).get("message_id").asString();
            assertThat(answer).isNotEqualTo(abandoned.get("message_id").asString());
            long seq = 0;
            for (JsonNode event : seen) {
                assertThat(event.get("seq").asLong()).as("seq keeps increasing").isGreaterThan(seq);
                seq = event.get("seq").asLong();
            }
            JsonNode ended = seen.getLast();
            assertThat(ended.get("message_id").asString()).isEqualTo(answer);

            Api.Reply stored = api.get("/api/v1/chats/" + chatId + "/messages?limit=100");
            assertThat(stored.status()).isEqualTo(200);
            JsonNode messages = stored.json().get("messages");
            assertThat(messages).as("the question and one answer: %s", messages).hasSize(2);
            assertThat(messages.get(1).get("id").asString()).isEqualTo(answer);
            assertThat(messages.get(1).get("content").asString())
                    .isEqualTo(ended.get("content").asString());

            List<JsonNode> afterResume = new ArrayList<>();
            try (resumed) {
                assertThat(resumed.awaitEvent("connection_established")
                                .get("last_seq")
                                .asLong())
                        .isGreaterThanOrEqualTo(askerSaw);
                while (afterResume.isEmpty()
                        || !afterResume.getLast().get("event_type").asString().equals("message_stream_ended")) {
                    afterResume.add(resumed.next(Duration.ofSeconds(60)));
                }
            }
            assertThat(afterResume)
                    .as("the asker, back on the other node, sees what the watcher saw after its last event")
                    .isEqualTo(seen.stream()
                            .filter(event -> event.get("seq").asLong() > askerSaw)
                            .toList());

            watching.sendContent("And a generator?");
            watching.awaitEvent("message_received");
            assertThat(watching.awaitReplyEnd().getLast().get("event_type").asString())
                    .as("the chat's lane is free")
                    .isEqualTo("message_stream_ended");
        } finally {
            cluster.node(1).start();
        }
    }

    @Test
    void aStoppingNodeSendsItsClientsElsewhereAtOnceAndFinishesTheirReply() throws Exception {
        String apiKey = cluster.newTenant("stopping-node");
        String chatId = Cluster.newChat(cluster.node(1).api().with("X-API-Key", apiKey), "student");
        try (ChatSocket asking = ChatSocket.connect(cluster.node(1).port(), apiKey, "student", chatId)) {
            asking.awaitEvent("connection_established");
            asking.sendContent("What is a list comprehension?");
            asking.awaitEvent("message_stream_started");
            asking.awaitEvent("message_stream_token");
            Thread stopping = Thread.ofVirtual().start(() -> {
                try {
                    cluster.node(1).stop();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            try {
                assertThat(asking.awaitClose(Duration.ofSeconds(3)))
                        .as("closed going away while its reply still streams")
                        .isEqualTo(1001);
                List<JsonNode> before = asking.received().stream()
                        .filter(event -> event.has("seq"))
                        .toList();
                long lastSeen = before.getLast().get("seq").asLong();

                try (ChatSocket resumed = ChatSocket.to(cluster.node(2).port())
                        .query("api_key", apiKey)
                        .query("user_id", "student")
                        .query("chat_id", chatId)
                        .query("resume_from", Long.toString(lastSeen))
                        .connect()) {
                    resumed.awaitEvent("connection_established");
                    List<JsonNode> after = resumed.awaitReplyEnd();
                    assertThat(after.getLast().get("event_type").asString())
                            .as("the stopping node finished the reply: %s", after)
                            .isEqualTo("message_stream_ended");
                    StringBuilder streamed = new StringBuilder();
                    List<JsonNode> all = new ArrayList<>(before);
                    all.addAll(after);
                    all.stream()
                            .filter(event -> event.get("event_type").asString().equals("message_stream_token"))
                            .forEach(token -> streamed.append(token.get("token").asString()));
                    assertThat(streamed.toString())
                            .isEqualTo(after.getLast().get("content").asString());
                }
            } finally {
                stopping.join();
                cluster.node(1).start();
            }
        }
    }

    @Test
    void aRollingRestartUnderTrafficLosesNoAcknowledgedMessage() throws Exception {
        String apiKey = cluster.newTenant("rolling-restart");
        Api api = cluster.api().with("X-API-Key", apiKey);
        List<PersistentClient> clients = new ArrayList<>();
        for (int i = 1; i <= 3; i++) {
            clients.add(new PersistentClient(apiKey, Cluster.newChat(api, "student-" + i), "student-" + i));
        }
        List<Thread> threads =
                clients.stream().map(client -> Thread.ofVirtual().start(client)).toList();

        Eventually.until(Duration.ofSeconds(30), () -> clients.stream().noneMatch(client -> client.answered.isEmpty()));
        cluster.node(1).stop();
        cluster.node(1).start();
        cluster.node(2).stop();
        cluster.node(2).start();
        // each client goes on talking until both nodes have restarted, each of them under it
        clients.forEach(PersistentClient::finish);
        for (Thread thread : threads) {
            thread.join(Duration.ofSeconds(120));
        }

        for (PersistentClient client : clients) {
            assertThat(client.failure).as("%s", client).isNull();
            assertThat(client.acknowledged)
                    .as("%s: every message acknowledged", client)
                    .hasSize(client.messages());
            assertThat(client.answered).as("%s: every message answered", client).hasSize(client.messages());
            assertThat(client.reconnects)
                    .as("%s: it was moved by the restarts", client)
                    .isPositive();
            JsonNode stored = api.get("/api/v1/chats/" + client.chatId + "/messages?limit=100")
                    .json()
                    .get("messages");
            List<String> roles = new ArrayList<>();
            List<String> asked = new ArrayList<>();
            stored.forEach(message -> {
                roles.add(message.get("sender_role").asString());
                if (message.get("sender_role").asString().equals("user")) {
                    asked.add(message.get("content").asString());
                }
            });
            assertThat(asked)
                    .as("%s: each message stored once", client)
                    .containsExactlyInAnyOrderElementsOf(client.acknowledged);
            assertThat(roles.stream().filter("assistant"::equals).count())
                    .as("%s: one answer per message: %s", client, roles)
                    .isEqualTo(client.messages());
        }
    }

    /**
     * A client as the chat page is one: through the load balancer, it sends its messages one after another (the
     * next once the last is acknowledged), each with a client_message_id; when its connection closes it connects
     * again with resume_from and sends again what was not acknowledged. It checks that the events it gets, over all
     * its connections, have strictly increasing seq.
     */
    static final class PersistentClient implements Runnable {

        final String apiKey;
        final String chatId;
        final String userId;
        final Set<String> acknowledged = ConcurrentHashMap.newKeySet();
        final Set<String> answered = ConcurrentHashMap.newKeySet();
        /** Connections that closed before the client was done: each a move to another node. */
        volatile int reconnects;

        volatile Throwable failure;
        private volatile boolean finishing;
        /** How many messages it sends in all: unbounded until {@link #finish()}, then one more than it has sent. */
        private int messages = Integer.MAX_VALUE;

        private long lastSeq;
        private int next;

        PersistentClient(String apiKey, String chatId, String userId) {
            this.apiKey = apiKey;
            this.chatId = chatId;
            this.userId = userId;
        }

        /** Ends the conversation after one more message. */
        void finish() {
            finishing = true;
        }

        /** Read by the client's thread, and by others once it has ended. */
        int messages() {
            if (finishing && messages == Integer.MAX_VALUE) {
                messages = next + 1;
            }
            return messages;
        }

        @Override
        public void run() {
            Instant deadline = Instant.now().plusSeconds(110);
            try {
                while (answered.size() < messages()) {
                    if (Instant.now().isAfter(deadline)) {
                        throw new AssertionError("not done in time");
                    }
                    converse();
                    if (answered.size() < messages()) {
                        reconnects++;
                        Thread.sleep(300);
                    }
                }
            } catch (Throwable e) {
                failure = e;
            }
        }

        /** One connection, until it closes or all is answered. */
        private void converse() {
            ChatSocket.Options options = ChatSocket.to(cluster.port())
                    .query("api_key", apiKey)
                    .query("user_id", userId)
                    .query("chat_id", chatId);
            if (lastSeq > 0) {
                options.query("resume_from", Long.toString(lastSeq));
            }
            ChatSocket connected;
            try {
                connected = options.connect();
            } catch (RuntimeException refused) {
                return; // no node answered the upgrade just now
            }
            try (ChatSocket socket = connected) {
                JsonNode first = socket.poll(Duration.ofSeconds(10));
                if (first == null || !first.get("event_type").asString().equals("connection_established")) {
                    return; // refused by a stopping node: the next try lands elsewhere
                }
                boolean sent = false;
                while (answered.size() < messages()) {
                    // at most two messages unanswered: one being answered, one waiting its turn in the chat's lane
                    if (!sent && next < messages() && next - answered.size() < 2) {
                        String content = "message " + (next + 1) + " of " + userId;
                        socket.send(
                                Api.JSON.writeValueAsString(Map.of("content", content, "client_message_id", content)));
                        sent = true;
                    }
                    JsonNode event = socket.poll(Duration.ofMillis(500));
                    if (event == null) {
                        if (!socket.isOpen()) {
                            return;
                        }
                        continue;
                    }
                    String type = event.get("event_type").asString();
                    boolean repeat = type.equals("message_received")
                            && acknowledged.contains(event.get("content").asString());
                    if (event.has("seq") && !repeat) {
                        long seq = event.get("seq").asLong();
                        assertThat(seq)
                                .as("%s: seq increases over reconnects", this)
                                .isGreaterThan(lastSeq);
                        lastSeq = seq;
                    }
                    switch (type) {
                        case "message_received" -> {
                            if (event.get("user_id").asString().equals(userId)
                                    && acknowledged.add(event.get("content").asString())) {
                                next++;
                                sent = false;
                            }
                        }
                        case "message_stream_ended" ->
                            answered.add(event.get("message_id").asString());
                        case "error" -> {
                            // a frame refused while its node stops was not stored: it goes again
                            if (event.get("error_code").asString().equals("INTERNAL_ERROR") && !event.has("seq")) {
                                sent = false;
                            }
                        }
                        default -> {}
                    }
                }
            }
        }

        @Override
        public String toString() {
            return userId + " (" + acknowledged.size() + " acknowledged, " + answered.size() + " answered, "
                    + reconnects + " reconnects, "
                    + (messages == Integer.MAX_VALUE ? "not finishing" : messages + " in all") + ")";
        }
    }
}
