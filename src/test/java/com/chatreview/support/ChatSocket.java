package com.chatreview.support;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import tools.jackson.databind.JsonNode;

/**
 * A WebSocket client for the tests, over the JDK's {@link WebSocket}: it connects to {@code /ws/chat} with query
 * parameters and headers of the test's choice, parses every text event it receives into a {@link JsonNode}, in
 * order, and remembers how the server closed the connection.
 */
public final class ChatSocket implements AutoCloseable {

    public static final Duration TIMEOUT = Duration.ofSeconds(20);
    private static final HttpClient CLIENT =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    private final BlockingQueue<JsonNode> events = new LinkedBlockingQueue<>();
    private final List<JsonNode> received = new ArrayList<>();
    private final List<String> texts = new ArrayList<>();
    private final CompletableFuture<Integer> closed = new CompletableFuture<>();
    private final java.util.concurrent.atomic.AtomicInteger pings = new java.util.concurrent.atomic.AtomicInteger();
    private final WebSocket webSocket;

    private ChatSocket(URI uri, Map<String, String> headers) {
        WebSocket.Builder builder = CLIENT.newWebSocketBuilder().connectTimeout(Duration.ofSeconds(10));
        headers.forEach(builder::header);
        this.webSocket = builder.buildAsync(uri, new Listener())
                .orTimeout(30, TimeUnit.SECONDS)
                .join();
    }

    /** What to connect with: query parameters and headers, each added only when given. */
    public static Options to(int port) {
        return new Options(port);
    }

    public static final class Options {
        private final int port;
        private final Map<String, String> query = new LinkedHashMap<>();
        private final Map<String, String> headers = new LinkedHashMap<>();
        private String path = "/ws/chat";

        private Options(int port) {
            this.port = port;
        }

        public Options query(String name, String value) {
            query.put(name, value);
            return this;
        }

        /** Another WebSocket path than {@code /ws/chat}, such as the chat page's {@code /ws/chat-ui}. */
        public Options path(String path) {
            this.path = path;
            return this;
        }

        public Options header(String name, String value) {
            headers.put(name, value);
            return this;
        }

        public ChatSocket connect() {
            // like Api: a made-up client address per connection (the tests connect through a trusted proxy,
            // 127.0.0.1), so that one test's failed keys do not spend another's budget
            if (!headers.containsKey("X-Forwarded-For")) {
                java.util.concurrent.ThreadLocalRandom random = java.util.concurrent.ThreadLocalRandom.current();
                headers.put(
                        "X-Forwarded-For",
                        "10." + random.nextInt(256) + "." + random.nextInt(256) + "." + random.nextInt(1, 255));
            }
            StringBuilder uri = new StringBuilder("ws://127.0.0.1:" + port + path);
            String separator = "?";
            for (Map.Entry<String, String> parameter : query.entrySet()) {
                uri.append(separator)
                        .append(parameter.getKey())
                        .append('=')
                        .append(java.net.URLEncoder.encode(
                                parameter.getValue(), java.nio.charset.StandardCharsets.UTF_8));
                separator = "&";
            }
            return new ChatSocket(URI.create(uri.toString()), headers);
        }
    }

    /** Connects with all three values as query parameters. */
    public static ChatSocket connect(int port, String apiKey, String userId, String chatId) {
        return to(port).query("api_key", apiKey)
                .query("user_id", userId)
                .query("chat_id", chatId)
                .connect();
    }

    public void send(String text) {
        webSocket.sendText(text, true).orTimeout(10, TimeUnit.SECONDS).join();
    }

    /** Sends a frame {@code {"content": content}}. */
    public void sendContent(String content) {
        send(Api.JSON.writeValueAsString(Map.of("content", content)));
    }

    public void sendBinary(byte[] bytes) {
        webSocket
                .sendBinary(ByteBuffer.wrap(bytes), true)
                .orTimeout(10, TimeUnit.SECONDS)
                .join();
    }

    /** The next event, or an {@link AssertionError} when none comes in time. */
    public JsonNode next(Duration timeout) {
        JsonNode event = poll(timeout);
        if (event == null) {
            throw new AssertionError(
                    "No event within " + timeout + " (" + state() + "); received so far: " + received());
        }
        return event;
    }

    public JsonNode next() {
        return next(TIMEOUT);
    }

    /** The next event, or null when none comes in time. */
    public JsonNode poll(Duration timeout) {
        try {
            return events.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Skips events until one of this type comes, and returns it. */
    public JsonNode awaitEvent(String eventType, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            long left = deadline - System.nanoTime();
            JsonNode event = left > 0 ? poll(Duration.ofNanos(left)) : null;
            if (event == null) {
                throw new AssertionError("No " + eventType + " within " + timeout + "; received so far: " + received());
            }
            if (eventType.equals(event.get("event_type").asString())) {
                return event;
            }
        }
    }

    public JsonNode awaitEvent(String eventType) {
        return awaitEvent(eventType, TIMEOUT);
    }

    /** The events from the next one up to and including the next {@code message_stream_ended} or error. */
    public List<JsonNode> awaitReplyEnd() {
        List<JsonNode> events = new ArrayList<>();
        while (true) {
            JsonNode event = next();
            events.add(event);
            String type = event.get("event_type").asString();
            if (type.equals("message_stream_ended") || type.equals("error")) {
                return events;
            }
        }
    }

    /** How many pings the server has sent (the client answers each with a pong). */
    public int pings() {
        return pings.get();
    }

    /** Every event received so far, in order. */
    public List<JsonNode> received() {
        synchronized (received) {
            return List.copyOf(received);
        }
    }

    /** Every event received so far, in order, as the text the server sent. */
    public List<String> receivedTexts() {
        synchronized (received) {
            return List.copyOf(texts);
        }
    }

    /** The close code the server sent, once the connection is closed. */
    public int awaitClose(Duration timeout) {
        try {
            return closed.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new AssertionError("Not closed within " + timeout + "; received: " + received());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    public int awaitClose() {
        return awaitClose(TIMEOUT);
    }

    public boolean isOpen() {
        return !closed.isDone() && !webSocket.isInputClosed() && !webSocket.isOutputClosed();
    }

    private String state() {
        return closed.isDone() ? "closed with " + closed.getNow(null) : "open";
    }

    /** Drops the connection without a close handshake, as a client that goes away would. */
    public void abort() {
        webSocket.abort();
    }

    /** Closes with 1000 and waits for the server's answer. */
    @Override
    public void close() {
        if (closed.isDone() || webSocket.isOutputClosed()) {
            webSocket.abort();
            return;
        }
        try {
            webSocket.sendClose(WebSocket.NORMAL_CLOSURE, "").get(10, TimeUnit.SECONDS);
            closed.get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            webSocket.abort();
        }
    }

    private final class Listener implements WebSocket.Listener {
        private final StringBuilder text = new StringBuilder();

        @Override
        public void onOpen(WebSocket socket) {
            socket.request(1);
        }

        @Override
        public CompletionStage<?> onText(WebSocket socket, CharSequence data, boolean last) {
            text.append(data);
            if (last) {
                JsonNode event = Api.JSON.readTree(text.toString());
                synchronized (received) {
                    received.add(event);
                    texts.add(text.toString());
                }
                text.setLength(0);
                events.add(event);
            }
            socket.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onPing(WebSocket socket, ByteBuffer message) {
            pings.incrementAndGet();
            return WebSocket.Listener.super.onPing(socket, message);
        }

        @Override
        public CompletionStage<?> onBinary(WebSocket socket, ByteBuffer data, boolean last) {
            socket.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onClose(WebSocket socket, int statusCode, String reason) {
            closed.complete(statusCode);
            return null;
        }

        @Override
        public void onError(WebSocket socket, Throwable error) {
            closed.complete(-1);
        }
    }
}
