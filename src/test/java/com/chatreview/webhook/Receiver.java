package com.chatreview.webhook;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/** A webhook receiver for tests: records what it is sent, and answers with the statuses it is told (then 200). */
public final class Receiver implements AutoCloseable {

    public record Received(Map<String, String> headers, String body, long nanoTime) {
        public @Nullable String header(String name) {
            return headers.get(name.toLowerCase());
        }
    }

    private final HttpServer server;
    private final BlockingQueue<Received> received = new LinkedBlockingQueue<>();
    private final ConcurrentLinkedQueue<Integer> answers = new ConcurrentLinkedQueue<>();
    private volatile Duration delay = Duration.ZERO;
    private final ExecutorService handlers = Executors.newVirtualThreadPerTaskExecutor();

    /** The body of every answer given with {@link #answer}'s statuses. */
    static final String TARGETS_PAGE = "internal page: db_password=hunter2";

    public Receiver() throws IOException {
        this(0);
    }

    /** A receiver on the given port (0: any free one), as one that comes back after being down. */
    Receiver(int port) throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 0);
        // requests answered at once, each on a thread of its own, as a real receiver does: a slow answer holds up
        // only its own request
        server.setExecutor(handlers);
        server.createContext("/", exchange -> {
            String body;
            try (InputStream in = exchange.getRequestBody()) {
                body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            Map<String, String> headers = new java.util.HashMap<>();
            exchange.getRequestHeaders().forEach((name, values) -> headers.put(name.toLowerCase(), values.getFirst()));
            received.add(new Received(headers, body, System.nanoTime()));
            try {
                Thread.sleep(delay);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            Integer status = answers.poll();
            if (status == null) {
                exchange.sendResponseHeaders(200, -1);
            } else {
                // what a target reachable from the service might hold: never to be read back through the service
                byte[] page = TARGETS_PAGE.getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(status, page.length);
                exchange.getResponseBody().write(page);
            }
            exchange.close();
        });
        server.start();
    }

    int port() {
        return server.getAddress().getPort();
    }

    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/hooks";
    }

    /** Each request is answered this late (a slow receiver). */
    void delay(Duration delay) {
        this.delay = delay;
    }

    /** The next requests are answered with these statuses, in order. */
    void answer(int... statuses) {
        for (int status : statuses) {
            answers.add(status);
        }
    }

    public Received next(Duration timeout) throws InterruptedException {
        Received next = received.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (next == null) {
            throw new AssertionError("Nothing was delivered within " + timeout);
        }
        return next;
    }

    /** The next delivery, or null when none comes in time. */
    public @Nullable Received poll(Duration timeout) throws InterruptedException {
        return received.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    List<Received> drain() {
        List<Received> all = new ArrayList<>();
        received.drainTo(all);
        return all;
    }

    @Override
    public void close() {
        server.stop(0);
        handlers.shutdownNow(); // a slow answer still held is cut off
    }
}
