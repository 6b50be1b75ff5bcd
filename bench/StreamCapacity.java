import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How many students can stream an AI reply at once through /ws/chat before a token reaches them late (issue 34 (a);
 * docs/deployment.md, Sizing). One JVM, one clock, JDK only:
 *
 * <pre>
 *   java bench/StreamCapacity.java stand-in=18290 base=http://127.0.0.1:18280 key=crs_... levels=10,100,1000
 *       pids=1234[,5678] nodes=http://127.0.0.1:18281[,...] tokens=300 rate=30 warmup=15 duration=30
 * </pre>
 *
 * It runs the provider stand-in: an OpenAI-compatible {@code /v1/chat/completions} that streams {@code tokens}
 * pieces at {@code rate} per second per stream, each piece reading {@code <n>@<send time in µs>}, and nothing else.
 * The service under test has {@code AI_PROVIDER=openai} and {@code AI_BASE_URL} on it. At each level of concurrent
 * streams it measures, per token, receive time minus the stand-in's send time: first with the client reading the
 * stand-in's stream directly (what an integrator would do without the service: the baseline), then through the
 * service's /ws/chat, each stream a chat of its own in a closed loop (the next question when the reply has ended).
 * Per level: delay p50/p99/max both ways and the difference, tokens lost (a piece missing from an ended reply, or a
 * reply ended by an error), the service's CPU per token (its pids' /proc ticks over the window), its RSS and heap,
 * and the p99 added once more without each reply's first five pieces (so that what a reply's start adds shows apart).
 * The levels stop after the first whose p99 added delay passes {@code stop_ms} (50) or that lost a token.
 *
 * <p>Why not Gatling: the figure asked for is a distribution over a timestamp carried inside each streamed piece,
 * read against the provider's own send time; Gatling measures request/response times, not that, and would need the
 * stand-in anyway.
 */
public class StreamCapacity {

    static final Pattern PIECE = Pattern.compile("(\\d+)@(\\d+)");

    public static void main(String[] args) throws Exception {
        Kit.options(args, 0);
        int tokens = Integer.parseInt(opt("tokens", "300"));
        int rate = Integer.parseInt(opt("rate", "30"));
        StandIn standIn = new StandIn(Integer.parseInt(opt("stand-in", "18290")), tokens, rate);
        if (Kit.has("serve")) { // the stand-in alone, until killed
            Thread.sleep(Long.MAX_VALUE);
        }
        String base = opt("base", null);
        String key = opt("key", null);
        List<Integer> levels = ints(opt("levels", "10,100,1000,2000"));
        int most = levels.stream().mapToInt(Integer::intValue).max().orElse(0);
        HttpClient http = Kit.httpClient(Executors.newFixedThreadPool(2), Duration.ofSeconds(10));
        List<String[]> chats = List.of(Kit.createChats(http, base, key, most, 8, i -> "u" + i));
        System.out.println("level direct_p50_ms direct_p99_ms direct_max_ms service_p50_ms service_p99_ms"
                + " service_max_ms added_p50_ms added_p99_ms tokens_per_s tokens_lost replies_failed"
                + " cpu_us_per_token service_cores rss_mib heap_mib machine_idle_cores added_p99_after_start_ms");
        int prewarm = Integer.parseInt(opt("prewarm", "0"));
        if (prewarm > 0) { // JIT and pools warmed through the service with up to 100 streams, not reported
            new ServiceRun(http, base, key, chats.subList(0, Math.min(most, 100)), prewarm, 1).run();
        }
        int warmup = Integer.parseInt(opt("warmup", "15")), duration = Integer.parseInt(opt("duration", "30"));
        for (int level : levels) {
            Window direct = new DirectRun(standIn, http, level, warmup, duration).run();
            Window service = new ServiceRun(http, base, key, chats.subList(0, level), warmup, duration).run();
            double addedP99 = service.delay.percentileMs(99) - direct.delay.percentileMs(99);
            String row = String.format(
                    "%d %.2f %.2f %.1f %.2f %.2f %.1f %.2f %.2f %.0f %d %d %.1f %.2f %.0f %.0f %.2f %.2f",
                    level,
                    direct.delay.percentileMs(50),
                    direct.delay.percentileMs(99),
                    direct.delay.maxMs(),
                    service.delay.percentileMs(50),
                    service.delay.percentileMs(99),
                    service.delay.maxMs(),
                    service.delay.percentileMs(50) - direct.delay.percentileMs(50),
                    addedP99,
                    service.tokens.sum() / service.seconds,
                    service.lost.sum(),
                    service.failed.sum(),
                    service.cpuMicros / Math.max(1, service.tokens.sum()),
                    service.cpuMicros / 1e6 / service.seconds,
                    service.rssMib,
                    service.heapMib,
                    service.idleCores,
                    service.afterStart.percentileMs(99) - direct.afterStart.percentileMs(99));
            System.out.println(row);
            for (String p : service.problems) System.err.println("problem at " + level + ": " + p);
            if (addedP99 > Double.parseDouble(opt("stop_ms", "50")) || service.lost.sum() > 0 || service.failed.sum() > 0) {
                System.out.println("# stopped after level " + level);
                break;
            }
        }
        standIn.close();
        System.exit(0);
    }

    static String opt(String name, String fallback) {
        return Kit.opt(name, fallback);
    }

    static List<Integer> ints(String csv) {
        List<Integer> out = new ArrayList<>();
        for (String s : csv.split(",")) if (!s.isBlank()) out.add(Integer.parseInt(s.strip()));
        return out;
    }

    static long nowMicros() {
        return Kit.micros(Instant.now());
    }

    static void sleepMs(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Delays in 10 µs steps up to 20 s, and the largest. */
    static final class Delays {
        final AtomicLongArray counts = new AtomicLongArray(2_000_000);
        final AtomicLong max = new AtomicLong();
        final LongAdder n = new LongAdder();

        void add(long micros) {
            int bucket = (int) Math.min(counts.length() - 1, Math.max(0, micros / 10));
            counts.incrementAndGet(bucket);
            max.accumulateAndGet(micros, Math::max);
            n.increment();
        }

        double percentileMs(double p) {
            long total = n.sum(), seen = 0, want = (long) Math.ceil(total * p / 100);
            for (int i = 0; i < counts.length(); i++) {
                seen += counts.get(i);
                if (seen >= want && seen > 0) return i * 10 / 1000.0;
            }
            return 0;
        }

        double maxMs() {
            return max.get() / 1000.0;
        }
    }

    /** What one level's measured window saw. */
    static class Window {
        final Delays delay = new Delays();
        /** The same without each reply's first five pieces: what a reply's start costs the delay, by difference. */
        final Delays afterStart = new Delays();
        final LongAdder tokens = new LongAdder(), lost = new LongAdder(), failed = new LongAdder();
        final List<String> problems = java.util.Collections.synchronizedList(new ArrayList<>());
        final int warmupSeconds, durationSeconds;
        volatile long start, end;
        double seconds, cpuMicros, rssMib, heapMib, idleCores;

        Window(int warmupSeconds, int durationSeconds) {
            this.warmupSeconds = warmupSeconds;
            this.durationSeconds = durationSeconds;
        }

        boolean inWindow(long nanos) {
            return nanos >= start && nanos < end;
        }

        /** Receives the pieces of one message; returns the next expected piece number. */
        int pieces(String text, int expected, long nanos) {
            Matcher m = PIECE.matcher(text);
            long now = nowMicros();
            while (m.find()) {
                int seq = Integer.parseInt(m.group(1));
                if (seq != expected) problem("piece " + seq + " where " + expected + " was due");
                expected = seq + 1;
                if (inWindow(nanos)) {
                    long micros = now - Long.parseLong(m.group(2));
                    delay.add(micros);
                    if (seq >= 5) afterStart.add(micros);
                    tokens.increment();
                }
            }
            return expected;
        }

        void problem(String p) {
            if (problems.size() < 10) problems.add(p);
        }

        /** Warm-up, then the measured window, with the service's CPU and the machine's idle time around it. */
        void measure() {
            sleepMs(1000L * warmupSeconds);
            long[] pids = Kit.has("pids") ? ints(opt("pids", "")).stream().mapToLong(i -> i).toArray() : new long[0];
            long cpu0 = ticks(pids), idle0 = idleTicks(), t0 = System.nanoTime();
            start = t0;
            end = t0 + 1_000_000_000L * durationSeconds;
            sleepMs((end - t0) / 1_000_000);
            long cpu1 = ticks(pids), idle1 = idleTicks(), t1 = System.nanoTime();
            seconds = (t1 - t0) / 1e9;
            cpuMicros = (cpu1 - cpu0) * 10_000.0; // 100 ticks a second
            idleCores = (idle1 - idle0) / 100.0 / seconds;
            for (long pid : pids) rssMib += rss(pid);
            for (String node : opt("nodes", "").split(",")) if (!node.isBlank()) heapMib += heap(node);
        }
    }

    static long ticks(long[] pids) {
        long total = 0;
        for (long pid : pids) {
            try {
                String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
                String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                total += Long.parseLong(f[11]) + Long.parseLong(f[12]);
            } catch (Exception e) {
                // gone
            }
        }
        return total;
    }

    static long idleTicks() {
        try {
            String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).split("\\s+");
            return Long.parseLong(f[4]) + Long.parseLong(f[5]);
        } catch (Exception e) {
            return 0;
        }
    }

    static double rss(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
                if (line.startsWith("VmRSS:")) return Long.parseLong(line.replaceAll("\\D", "")) / 1024.0;
            }
        } catch (Exception e) {
            // gone
        }
        return 0;
    }

    static double heap(String node) {
        try {
            HttpResponse<java.util.stream.Stream<String>> r = HttpClient.newHttpClient()
                    .send(HttpRequest.newBuilder(URI.create(node + "/actuator/prometheus")).build(),
                            HttpResponse.BodyHandlers.ofLines());
            return r.body()
                    .filter(l -> l.startsWith("jvm_memory_used_bytes{area=\"heap\""))
                    .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
                    .sum() / 1048576;
        } catch (Exception e) {
            return 0;
        }
    }

    /** The baseline: the same streams read straight from the stand-in, each on a virtual thread. */
    static final class DirectRun extends Window {
        final StandIn standIn;
        final HttpClient http;
        final int streams;
        volatile boolean running = true;

        DirectRun(StandIn standIn, HttpClient http, int streams, int warmup, int duration) {
            super(warmup, duration);
            this.standIn = standIn;
            this.http = http;
            this.streams = streams;
        }

        Window run() {
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < streams; i++) {
                threads.add(Thread.ofVirtual().start(this::loop));
            }
            measure();
            running = false;
            for (Thread t : threads) t.interrupt();
            return this;
        }

        void loop() {
            sleepMs(ThreadLocalRandom.current().nextLong(1000));
            HttpRequest request = HttpRequest.newBuilder(URI.create(standIn.url()))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"m\",\"stream\":true,\"messages\":[]}"))
                    .build();
            while (running) {
                int expected = 0;
                try {
                    HttpResponse<java.io.InputStream> r = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
                    try (BufferedReader in = new BufferedReader(new InputStreamReader(r.body(), StandardCharsets.UTF_8))) {
                        String line;
                        while (running && (line = in.readLine()) != null) {
                            if (line.startsWith("data: {") && line.contains("\"content\"")) {
                                expected = pieces(line, expected, System.nanoTime());
                            }
                        }
                    }
                    if (running && inWindow(System.nanoTime())) lost.add(standIn.tokens - expected);
                } catch (Exception e) {
                    if (running) {
                        failed.increment();
                        problem("direct: " + e);
                    }
                }
            }
        }
    }

    /** Through the service: a WebSocket per chat, the next question when the reply has ended. */
    static final class ServiceRun extends Window {
        final HttpClient http;
        final String ws, key;
        final List<String[]> chats;
        final List<Stream> open = java.util.Collections.synchronizedList(new ArrayList<>());
        volatile boolean running = true;

        ServiceRun(HttpClient http, String base, String key, List<String[]> chats, int warmup, int duration) {
            super(warmup, duration);
            this.http = http;
            this.ws = base.replaceFirst("^http", "ws") + "/ws/chat";
            this.key = key;
            this.chats = chats;
        }

        Window run() {
            int perSecond = Integer.parseInt(opt("connect_rate", "200"));
            for (int i = 0; i < chats.size(); i++) {
                Stream s = new Stream(chats.get(i));
                open.add(s);
                s.connect(0);
                if (i % perSecond == perSecond - 1) sleepMs(1000);
            }
            measure();
            running = false;
            synchronized (open) {
                for (Stream s : open) s.close();
            }
            sleepMs(2000);
            return this;
        }

        final class Stream implements WebSocket.Listener {
            final String[] chat;
            final StringBuilder partial = new StringBuilder();
            volatile WebSocket socket;
            int expected;
            boolean counting;
            volatile boolean established;

            Stream(String[] chat) {
                this.chat = chat;
            }

            void connect(int attempt) {
                http.newWebSocketBuilder().buildAsync(Kit.wsUri(ws, key, chat[0], chat[1]), this).whenComplete((w, e) -> {
                    if (e != null && running) {
                        if (attempt < 20) {
                            CompletableFuture.delayedExecutor(250L << Math.min(attempt, 3), java.util.concurrent.TimeUnit.MILLISECONDS)
                                    .execute(() -> connect(attempt + 1));
                        } else {
                            failed.increment();
                            problem("connect: " + e);
                        }
                    }
                });
            }

            void ask() {
                if (!running || socket == null) return;
                expected = 0;
                counting = inWindow(System.nanoTime());
                socket.sendText("{\"content\":\"Stream, please.\"}", true);
            }

            void close() {
                if (socket != null) socket.sendClose(WebSocket.NORMAL_CLOSURE, "done");
            }

            @Override
            public void onOpen(WebSocket webSocket) {
                socket = webSocket;
                webSocket.request(1);
            }

            @Override
            public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
                partial.append(data);
                if (last) {
                    String event = partial.toString();
                    partial.setLength(0);
                    on(event);
                }
                webSocket.request(1);
                return null;
            }

            void on(String event) {
                long nanos = System.nanoTime();
                if (event.contains("\"event_type\":\"message_stream_token\"")) {
                    expected = pieces(event, expected, nanos);
                } else if (event.contains("\"event_type\":\"message_stream_ended\"")) {
                    if (counting && running) lost.add(expectedTokens() - expected);
                    ask();
                } else if (event.contains("\"event_type\":\"connection_established\"")) {
                    established = true;
                    CompletableFuture.delayedExecutor(ThreadLocalRandom.current().nextLong(1000),
                                    java.util.concurrent.TimeUnit.MILLISECONDS)
                            .execute(this::ask);
                } else if (event.contains("\"event_type\":\"error\"") && established) {
                    // before connection_established, an error is the handshake turned away (a 1013 close follows)
                    if (running) {
                        failed.increment();
                        problem("error event: " + event);
                    }
                    CompletableFuture.delayedExecutor(1, java.util.concurrent.TimeUnit.SECONDS).execute(this::ask);
                }
            }

            @Override
            public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
                if (running) {
                    if (statusCode != 1013) problem("closed " + statusCode + " " + reason);
                    socket = null;
                    established = false;
                    // 1013: the node turned the handshake away for now (retry_after_ms); come back a little later
                    CompletableFuture.delayedExecutor(250 + ThreadLocalRandom.current().nextLong(500),
                                    java.util.concurrent.TimeUnit.MILLISECONDS)
                            .execute(() -> connect(0));
                }
                return null;
            }

            @Override
            public void onError(WebSocket webSocket, Throwable error) {
                if (running) {
                    failed.increment();
                    problem("socket error: " + error);
                }
            }
        }

        static int expectedTokens() {
            return Integer.parseInt(opt("tokens", "300"));
        }
    }

    /** The provider stand-in: tokens and nothing else, each stamped with its send time. */
    static final class StandIn implements AutoCloseable {
        final HttpServer server;
        final int tokens;
        final long intervalNanos;

        StandIn(int port, int tokens, int rate) throws Exception {
            this.tokens = tokens;
            this.intervalNanos = 1_000_000_000L / rate;
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 4096);
            server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
            server.createContext("/v1/chat/completions", this::completion);
            server.start();
        }

        String url() {
            return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1/chat/completions";
        }

        void completion(HttpExchange exchange) {
            try (exchange) {
                String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
                if (!body.replace(" ", "").contains("\"stream\":true")) {
                    byte[] answer = ("{\"id\":\"c\",\"object\":\"chat.completion\",\"created\":1,\"model\":\"m\","
                                    + "\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"ok\"},"
                                    + "\"finish_reason\":\"stop\"}]}")
                            .getBytes(StandardCharsets.UTF_8);
                    exchange.getResponseHeaders().add("Content-Type", "application/json");
                    exchange.sendResponseHeaders(200, answer.length);
                    exchange.getResponseBody().write(answer);
                    return;
                }
                exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
                exchange.sendResponseHeaders(200, 0);
                OutputStream out = exchange.getResponseBody();
                long start = System.nanoTime();
                for (int i = 0; i < tokens; i++) {
                    long due = start + i * intervalNanos;
                    for (long wait; (wait = due - System.nanoTime()) > 0; ) LockSupport.parkNanos(wait);
                    out.write(chunk("{\"role\":\"assistant\",\"content\":\"" + i + "@" + nowMicros() + " \"}", "null"));
                    out.flush();
                }
                out.write(chunk("{}", "\"stop\""));
                out.write(("data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\","
                                + "\"choices\":[],\"usage\":{\"prompt_tokens\":10,\"completion_tokens\":" + tokens
                                + ",\"total_tokens\":" + (tokens + 10) + "}}\n\ndata: [DONE]\n\n")
                        .getBytes(StandardCharsets.UTF_8));
                out.flush();
            } catch (Exception e) {
                // the reader went away: its stream ends here
            }
        }

        static byte[] chunk(String delta, String finish) {
            return ("data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\","
                            + "\"choices\":[{\"index\":0,\"delta\":" + delta + ",\"finish_reason\":" + finish + "}]}\n\n")
                    .getBytes(StandardCharsets.UTF_8);
        }

        @Override
        public void close() {
            server.stop(0);
        }
    }
}
