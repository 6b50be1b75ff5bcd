import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The load of bench/outage.sh: REST readers, readiness probes, WebSocket connects and frames on an open
 * connection, each outcome recorded per second, while the script stops the service's PostgreSQL and starts it again.
 * At the end it reads the script's marks (epoch ms of the stop and of the start) and prints the table of
 * docs/benchmarks.md "Faults: a database outage".
 *
 *   java bench/OutageLoad.java base=http://127.0.0.1:18186 key=crs_... chat=<uuid> seconds=60 readers=8 marks=FILE
 *
 * <p>Why not wrk: the figures are per status (the slowest 503) and per second across a database restart; wrk
 * gives one latency distribution for all statuses.
 */
public class OutageLoad {

    record Outcome(long atMs, String kind, String result, long tookMs) {}

    static final List<Outcome> outcomes = Collections.synchronizedList(new ArrayList<>());
    static final AtomicBoolean running = new AtomicBoolean(true);

    public static void main(String[] args) throws Exception {
        Kit.options(args, 0);
        String base = Kit.opt("base", null);
        String key = Kit.opt("key", null);
        String chat = Kit.opt("chat", null);
        int seconds = Integer.parseInt(Kit.opt("seconds", "60"));
        int readers = Integer.parseInt(Kit.opt("readers", "8"));
        Path marks = Path.of(Kit.opt("marks", null));
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < readers; i++) {
            threads.add(Thread.ofVirtual().start(() -> {
                while (running.get()) {
                    outcomes.add(rest(http, base + "/api/v1/chats/" + chat, key, "rest"));
                }
            }));
        }
        threads.add(Thread.ofVirtual().start(() -> {
            while (running.get()) {
                outcomes.add(rest(http, base + "/actuator/health/readiness", null, "readiness"));
                sleep(250);
            }
        }));
        String ws = base.replace("http://", "ws://") + "/ws/chat?api_key=" + key + "&user_id=outage&chat_id=" + chat;
        threads.add(Thread.ofVirtual().start(() -> {
            while (running.get()) {
                outcomes.add(connect(http, ws));
                sleep(500);
            }
        }));
        threads.add(Thread.ofVirtual().start(() -> frames(http, ws)));
        Thread.sleep(seconds * 1000L);
        running.set(false);
        for (Thread thread : threads) {
            thread.join(15_000);
        }
        report(marks);
        System.exit(0);
    }

    static Outcome rest(HttpClient http, String url, String key, String kind) {
        long start = System.currentTimeMillis();
        try {
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30));
            if (key != null) {
                request.header("X-API-Key", key);
            }
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            String result = Integer.toString(response.statusCode());
            if (key != null
                    && response.statusCode() == 503
                    && response.headers().firstValue("Retry-After").isEmpty()) {
                result = "503 without Retry-After";
            }
            return new Outcome(start, kind, result, System.currentTimeMillis() - start);
        } catch (Exception e) {
            return new Outcome(start, kind, e.getClass().getSimpleName(), System.currentTimeMillis() - start);
        }
    }

    /** A new connection: established, or the error code and close code it was sent away with. */
    static Outcome connect(HttpClient http, String url) {
        long start = System.currentTimeMillis();
        CompletableFuture<String> first = new CompletableFuture<>();
        CompletableFuture<Integer> closed = new CompletableFuture<>();
        try {
            WebSocket socket = http.newWebSocketBuilder()
                    .buildAsync(URI.create(url), new WebSocket.Listener() {
                        final StringBuilder text = new StringBuilder();

                        @Override
                        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
                            text.append(data);
                            if (last) {
                                first.complete(text.toString());
                                text.setLength(0);
                            }
                            webSocket.request(1);
                            return null;
                        }

                        @Override
                        public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
                            closed.complete(statusCode);
                            return null;
                        }
                    })
                    .get(10, TimeUnit.SECONDS);
            String event = first.get(10, TimeUnit.SECONDS);
            String result;
            if (event.contains("\"connection_established\"")) {
                result = "established";
                socket.sendClose(WebSocket.NORMAL_CLOSURE, "").get(5, TimeUnit.SECONDS);
            } else {
                String code = event.replaceAll(".*\"error_code\"\\s*:\\s*\"([A-Z_]+)\".*", "$1");
                result = code + " then " + closed.get(10, TimeUnit.SECONDS);
            }
            return new Outcome(start, "ws-connect", result, System.currentTimeMillis() - start);
        } catch (Exception e) {
            return new Outcome(start, "ws-connect", e.getClass().getSimpleName(), System.currentTimeMillis() - start);
        }
    }

    /** One connection kept open, a frame a second: the reply's end, or the error it got. Reconnects if closed. */
    static void frames(HttpClient http, String url) {
        while (running.get()) {
            Map<Long, CompletableFuture<String>> answers = new ConcurrentHashMap<>();
            CompletableFuture<Integer> closed = new CompletableFuture<>();
            long[] asked = {0};
            try {
                WebSocket socket = http.newWebSocketBuilder()
                        .buildAsync(URI.create(url), new WebSocket.Listener() {
                            final StringBuilder text = new StringBuilder();

                            @Override
                            public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
                                text.append(data);
                                if (last) {
                                    String event = text.toString();
                                    text.setLength(0);
                                    CompletableFuture<String> waiting = answers.get(asked[0]);
                                    if (waiting != null && event.contains("\"message_stream_ended\"")) {
                                        waiting.complete("reply");
                                    } else if (waiting != null && event.contains("\"event_type\":\"error\"")) {
                                        waiting.complete(event.replaceAll(
                                                ".*\"error_code\"\\s*:\\s*\"([A-Z_]+)\".*", "$1"));
                                    }
                                }
                                webSocket.request(1);
                                return null;
                            }

                            @Override
                            public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
                                closed.complete(statusCode);
                                answers.values().forEach(f -> f.complete("closed " + statusCode));
                                return null;
                            }
                        })
                        .get(10, TimeUnit.SECONDS);
                while (running.get() && !closed.isDone()) {
                    long start = System.currentTimeMillis();
                    asked[0] = start;
                    CompletableFuture<String> answer = new CompletableFuture<>();
                    answers.put(start, answer);
                    socket.sendText("{\"content\": \"still there?\"}", true).get(5, TimeUnit.SECONDS);
                    String result;
                    try {
                        result = answer.get(20, TimeUnit.SECONDS);
                    } catch (Exception timeout) {
                        result = "no answer in 20 s";
                    }
                    outcomes.add(new Outcome(start, "ws-frame", result, System.currentTimeMillis() - start));
                    sleep(Math.max(0, 1000 - (System.currentTimeMillis() - start)));
                }
                socket.abort();
            } catch (Exception e) {
                outcomes.add(new Outcome(System.currentTimeMillis(), "ws-frame", "connect " + e.getClass().getSimpleName(), 0));
                sleep(1000);
            }
        }
    }

    static void report(Path marksFile) throws Exception {
        Map<String, Long> marks = new TreeMap<>();
        for (String line : Files.readAllLines(marksFile)) {
            if (line.contains("=")) {
                marks.put(line.substring(0, line.indexOf('=')), Long.parseLong(line.substring(line.indexOf('=') + 1).trim()));
            }
        }
        long stopped = marks.get("stopped");
        long started = marks.get("started");
        List<Outcome> all;
        synchronized (outcomes) {
            all = new ArrayList<>(outcomes);
        }
        System.out.printf("outage: PostgreSQL stopped for %.1f s%n%n", (started - stopped) / 1000.0);
        System.out.println("| what | before the outage | during the outage | after the restart |");
        System.out.println("|---|---|---|---|");
        for (String kind : List.of("rest", "readiness", "ws-connect", "ws-frame")) {
            System.out.printf("| %s | %s | %s | %s |%n",
                    kind,
                    summary(all, kind, Long.MIN_VALUE, stopped),
                    summary(all, kind, stopped, started),
                    summary(all, kind, started, Long.MAX_VALUE));
        }
        System.out.println();
        long worst500 = all.stream().filter(o -> o.result().startsWith("500")).count();
        System.out.println("500 answers in all: " + worst500);
        long slowest503 = all.stream()
                .filter(o -> o.kind().equals("rest") && o.result().startsWith("503"))
                .mapToLong(Outcome::tookMs)
                .max()
                .orElse(-1);
        System.out.println("slowest REST 503: " + slowest503 + " ms");
        firstAfter(all, "readiness", "503", stopped, "readiness DOWN after the stop");
        firstAfter(all, "rest", "503", stopped, "first REST 503 after the stop");
        firstAfter(all, "readiness", "200", started, "readiness UP after the start");
        firstAfter(all, "rest", "200", started, "first REST 200 after the start");
        firstAfter(all, "ws-connect", "established", started, "first WebSocket established after the start");
        firstAfter(all, "ws-frame", "reply", started, "first frame answered after the start");
    }

    static void firstAfter(List<Outcome> all, String kind, String result, long from, String label) {
        all.stream()
                .filter(o -> o.kind().equals(kind) && o.atMs() >= from && o.result().startsWith(result))
                .mapToLong(o -> o.atMs() + o.tookMs() - from)
                .min()
                .ifPresentOrElse(
                        ms -> System.out.printf("%s: %.2f s%n", label, ms / 1000.0),
                        () -> System.out.println(label + ": never"));
    }

    static String summary(List<Outcome> all, String kind, long from, long to) {
        Map<String, Integer> counts = new TreeMap<>();
        List<Long> took = new ArrayList<>();
        for (Outcome o : all) {
            if (o.kind().equals(kind) && o.atMs() >= from && o.atMs() < to) {
                counts.merge(o.result(), 1, Integer::sum);
                took.add(o.tookMs());
            }
        }
        if (took.isEmpty()) {
            return "-";
        }
        Collections.sort(took);
        long p99 = took.get(Math.min(took.size() - 1, (int) Math.ceil(took.size() * 0.99) - 1));
        StringBuilder text = new StringBuilder();
        counts.forEach((result, n) -> text.append(n).append("× ").append(result).append(", "));
        return text + "p99 " + p99 + " ms, max " + took.getLast() + " ms";
    }

    static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
