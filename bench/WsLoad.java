import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
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
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * WebSocket load client for /ws/chat (see docs/benchmarks.md, section WebSocket). Runs with the JDK's source
 * launcher, no dependencies:
 *
 * <pre>
 *   java bench/WsLoad.java chats  base=http://127.0.0.1:18183 key=crs_... n=10000 file=chats.txt
 *   java bench/WsLoad.java idle   ws=ws://127.0.0.1:18183/ws/chat key=... chats=chats.txt n=10000 hold=600 stop=FILE
 *   java bench/WsLoad.java stream ws=... key=... chats=chats.txt conns=200 warmup=20 duration=30 content="..."
 * </pre>
 *
 * chats: creates n chats through POST /api/v1/chats (user u&lt;i&gt;), writes "chat_id user_id" lines.
 * idle: opens n connections (each until its connection_established), prints READY, holds them until the stop file
 * appears or hold seconds pass (checking that they stay open), then closes them.
 * stream: conns connections, each on its own chat, each sending a frame when the previous reply ended (closed loop);
 * after warmup seconds it measures for duration seconds; checks each connection's seq (no gap within a frame's
 * events, no repeat) and that
 * the streamed tokens add up to the stored reply. Every phase has a deadline: the program always ends by itself.
 * Results are printed as "key=value" lines (and to out=FILE when given).
 */
public class WsLoad {

    static final Map<String, String> OPT = new LinkedHashMap<>();
    static final Map<String, String> RESULT = new LinkedHashMap<>();
    // wall clock in microseconds from nanoTime, for comparing with the server's millisecond timestamps
    static final long WALL_BASE_MICROS;
    static final long NANO_BASE = System.nanoTime();

    static {
        Instant now = Instant.now();
        WALL_BASE_MICROS = now.getEpochSecond() * 1_000_000L + now.getNano() / 1000;
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 0) {
            System.err.println("usage: java bench/WsLoad.java chats|idle|stream key=value...");
            System.exit(2);
        }
        for (int i = 1; i < args.length; i++) {
            int eq = args[i].indexOf('=');
            if (eq < 0) throw new IllegalArgumentException("not key=value: " + args[i]);
            OPT.put(args[i].substring(0, eq), args[i].substring(eq + 1));
        }
        // a hard stop, whatever happens
        long limit = Long.parseLong(opt("limit", "1800"));
        Thread killer = Thread.ofPlatform().daemon().start(() -> {
            try {
                Thread.sleep(limit * 1000);
                System.err.println("WsLoad: hard time limit of " + limit + " s reached; exiting");
                System.out.flush();
                Runtime.getRuntime().halt(3);
            } catch (InterruptedException ignored) {
            }
        });
        switch (args[0]) {
            case "chats" -> chats();
            case "idle" -> idle();
            case "stream" -> stream();
            default -> throw new IllegalArgumentException("unknown mode " + args[0]);
        }
        StringBuilder out = new StringBuilder();
        RESULT.forEach((k, v) -> out.append(k).append('=').append(v).append('\n'));
        System.out.print(out);
        System.out.flush();
        if (OPT.containsKey("out")) Files.writeString(Path.of(OPT.get("out")), out);
        killer.interrupt();
        System.exit(0);
    }

    static String opt(String key, String dflt) {
        String v = OPT.get(key);
        if (v == null && dflt == null) throw new IllegalArgumentException("missing option " + key + "=");
        return v == null ? dflt : v;
    }

    static void log(String s) {
        System.err.printf("[%s] %s%n", java.time.LocalTime.now().withNano(0), s);
    }

    static HttpClient client(ExecutorService executor) {
        return HttpClient.newBuilder()
                .executor(executor)
                .connectTimeout(Duration.ofSeconds(10))
                .version(HttpClient.Version.HTTP_1_1)
                .build();
    }

    // ------------------------------------------------------------------------------------------------------------
    // chats
    // ------------------------------------------------------------------------------------------------------------
    static void chats() throws Exception {
        String base = opt("base", null), key = opt("key", null);
        int n = Integer.parseInt(opt("n", null));
        int concurrency = Integer.parseInt(opt("concurrency", "16"));
        String prefix = opt("prefix", "u");
        ExecutorService executor = Executors.newFixedThreadPool(2);
        HttpClient http = client(executor);
        String[] lines = new String[n];
        Semaphore inFlight = new Semaphore(concurrency);
        AtomicInteger failed = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(n);
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            if (!inFlight.tryAcquire(60, TimeUnit.SECONDS)) throw new IllegalStateException("chat creation stalled");
            int index = i;
            String user = prefix + i;
            HttpRequest request = HttpRequest.newBuilder(URI.create(base + "/api/v1/chats"))
                    .timeout(Duration.ofSeconds(30))
                    .header("X-API-Key", key)
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"user_id\":\"" + user + "\"}"))
                    .build();
            http.sendAsync(request, HttpResponse.BodyHandlers.ofString()).whenComplete((response, error) -> {
                String id = error == null && response.statusCode() == 201 ? stringField(response.body(), "id") : null;
                if (id == null) {
                    if (failed.incrementAndGet() <= 5) {
                        log("chat creation failed: " + (error != null ? error : response.statusCode() + " " + response.body()));
                    }
                } else {
                    lines[index] = id + " " + user;
                }
                inFlight.release();
                done.countDown();
            });
        }
        if (!done.await(120, TimeUnit.SECONDS)) throw new IllegalStateException("chat creation did not finish");
        if (failed.get() > 0) throw new IllegalStateException(failed.get() + " chats were not created");
        Files.write(Path.of(opt("file", null)), Arrays.asList(lines));
        RESULT.put("chats_created", String.valueOf(n));
        RESULT.put("chats_seconds", secs(System.nanoTime() - t0));
        executor.shutdownNow();
    }

    static List<String[]> readChats() throws IOException {
        List<String[]> chats = new ArrayList<>();
        for (String line : Files.readAllLines(Path.of(opt("chats", null)))) {
            if (!line.isBlank()) chats.add(line.strip().split(" "));
        }
        return chats;
    }

    static URI wsUri(String[] chat) {
        return URI.create(opt("ws", null) + "?api_key=" + URLEncoder.encode(opt("key", null), StandardCharsets.UTF_8)
                + "&user_id=" + URLEncoder.encode(chat[1], StandardCharsets.UTF_8) + "&chat_id=" + chat[0]);
    }

    // ------------------------------------------------------------------------------------------------------------
    // idle
    // ------------------------------------------------------------------------------------------------------------
    static void idle() throws Exception {
        List<String[]> chats = readChats();
        int n = Integer.parseInt(opt("n", null));
        int concurrency = Integer.parseInt(opt("concurrency", "100"));
        long hold = Long.parseLong(opt("hold", "600"));
        long openTimeout = Long.parseLong(opt("open_timeout", "300"));
        Path stop = Path.of(opt("stop", "/nonexistent-stop-file"));
        ExecutorService executor = Executors.newFixedThreadPool(Integer.parseInt(opt("threads", "4")));
        HttpClient http = client(executor);
        Semaphore inFlight = new Semaphore(concurrency);
        LongAdder established = new LongAdder(), failedOpen = new LongAdder(), closedByServer = new LongAdder();
        LongAdder errors = new LongAdder(), pings = new LongAdder(), otherEvents = new LongAdder();
        Map<String, LongAdder> closeCodes = new ConcurrentHashMap<>();
        List<WebSocket> sockets = java.util.Collections.synchronizedList(new ArrayList<>());
        CountDownLatch opened = new CountDownLatch(n);
        long t0 = System.nanoTime();
        long deadline = t0 + openTimeout * 1_000_000_000L;
        for (int i = 0; i < n; i++) {
            long left = deadline - System.nanoTime();
            if (left <= 0 || !inFlight.tryAcquire(left, TimeUnit.NANOSECONDS)) {
                log("opening did not finish within " + openTimeout + " s");
                break;
            }
            String[] chat = chats.get(i % chats.size());
            boolean[] counted = {false};
            WebSocket.Listener listener = new WebSocket.Listener() {
                final StringBuilder text = new StringBuilder();

                @Override
                public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
                    text.append(data);
                    if (last) {
                        String event = text.toString();
                        text.setLength(0);
                        String type = stringField(event, "event_type");
                        if ("connection_established".equals(type)) {
                            synchronized (counted) {
                                if (!counted[0]) {
                                    counted[0] = true;
                                    established.increment();
                                    inFlight.release();
                                    opened.countDown();
                                }
                            }
                        } else if ("error".equals(type)) {
                            errors.increment();
                            if (errors.sum() <= 5) log("error event: " + event);
                        } else if (!"user_created".equals(type)) {
                            otherEvents.increment();
                        }
                    }
                    ws.request(1);
                    return null;
                }

                @Override
                public CompletionStage<?> onPing(WebSocket ws, java.nio.ByteBuffer message) {
                    pings.increment();
                    return WebSocket.Listener.super.onPing(ws, message); // the JDK answers with a pong
                }

                @Override
                public CompletionStage<?> onClose(WebSocket ws, int code, String reason) {
                    closedByServer.increment();
                    closeCodes.computeIfAbsent(code + " " + reason, k -> new LongAdder()).increment();
                    failOpen();
                    return null;
                }

                @Override
                public void onError(WebSocket ws, Throwable error) {
                    closeCodes.computeIfAbsent("error " + error.getClass().getSimpleName(), k -> new LongAdder())
                            .increment();
                    failOpen();
                }

                void failOpen() {
                    synchronized (counted) {
                        if (!counted[0]) {
                            counted[0] = true;
                            failedOpen.increment();
                            inFlight.release();
                            opened.countDown();
                        }
                    }
                }
            };
            http.newWebSocketBuilder()
                    .connectTimeout(Duration.ofSeconds(30))
                    .buildAsync(wsUri(chat), listener)
                    .whenComplete((ws, error) -> {
                        if (error != null) {
                            if (failedOpen.sum() < 5) log("connect failed: " + error);
                            listener.onError(null, error);
                        } else {
                            sockets.add(ws);
                        }
                    });
            if ((i + 1) % 1000 == 0) log("requested " + (i + 1) + ", established " + established.sum());
        }
        opened.await(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        long openNanos = System.nanoTime() - t0;
        RESULT.put("idle_requested", String.valueOf(n));
        RESULT.put("idle_established", String.valueOf(established.sum()));
        RESULT.put("idle_failed_open", String.valueOf(failedOpen.sum()));
        RESULT.put("idle_open_seconds", secs(openNanos));
        RESULT.put("idle_open_rate_per_s", String.format("%.0f", established.sum() / (openNanos / 1e9)));
        Runtime rt = Runtime.getRuntime();
        System.out.println("READY established=" + established.sum() + " failed=" + failedOpen.sum()
                + " seconds=" + secs(openNanos) + " client_heap_used_mib=" + (rt.totalMemory() - rt.freeMemory()) / 1048576);
        System.out.flush();
        long holdEnd = System.nanoTime() + hold * 1_000_000_000L;
        long minOpen = Long.MAX_VALUE;
        while (System.nanoTime() < holdEnd && !Files.exists(stop)) {
            Thread.sleep(1000);
            long open = sockets.stream().filter(ws -> !ws.isInputClosed()).count();
            minOpen = Math.min(minOpen, open);
        }
        long heldNanos = System.nanoTime() - t0 - openNanos;
        RESULT.put("idle_held_seconds", secs(heldNanos));
        RESULT.put("idle_min_open_during_hold", String.valueOf(minOpen == Long.MAX_VALUE ? -1 : minOpen));
        RESULT.put("idle_closed_by_server", String.valueOf(closedByServer.sum()));
        RESULT.put("idle_error_events", String.valueOf(errors.sum()));
        RESULT.put("idle_other_events", String.valueOf(otherEvents.sum()));
        RESULT.put("idle_pings_received", String.valueOf(pings.sum()));
        RESULT.put("idle_close_codes", closeCodes.toString().replace(' ', '_'));
        // close them all, bounded
        List<CompletableFuture<WebSocket>> closing = new ArrayList<>();
        synchronized (sockets) {
            for (WebSocket ws : sockets) {
                if (!ws.isOutputClosed()) closing.add(ws.sendClose(WebSocket.NORMAL_CLOSURE, "bench done"));
            }
        }
        try {
            CompletableFuture.allOf(closing.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
        } catch (Exception e) {
            log("closing: " + e);
        }
        Thread.sleep(2000);
        synchronized (sockets) {
            sockets.forEach(WebSocket::abort);
        }
    }

    // ------------------------------------------------------------------------------------------------------------
    // stream
    // ------------------------------------------------------------------------------------------------------------
    static final class LongList {
        long[] values = new long[256];
        int size;

        void add(long v) {
            if (size == values.length) values = Arrays.copyOf(values, size * 2);
            values[size++] = v;
        }

        void addAll(LongList other) {
            for (int i = 0; i < other.size; i++) add(other.values[i]);
        }

        long[] sorted() {
            long[] s = Arrays.copyOf(values, size);
            Arrays.sort(s);
            return s;
        }
    }

    static volatile long measureStart = Long.MAX_VALUE, measureEnd = Long.MAX_VALUE;
    static volatile boolean sending = true;

    static final class Conn implements WebSocket.Listener {
        final String[] chat;
        final String frame;
        final StringBuilder text = new StringBuilder();
        WebSocket ws;
        long expectedSeq = -1;
        long sentAt, receivedAt, startedAt, lastTokenAt;
        int tokens;
        StringBuilder reply = new StringBuilder();
        boolean inFlight, firstReply = true;
        volatile boolean established, closed;
        // measured (frames sent inside the window)
        final LongList frameNs = new LongList(), receivedNs = new LongList(), startedNs = new LongList();
        final LongList firstTokenNs = new LongList(), gapNs = new LongList(), lagUs = new LongList();
        final LongList tokensPerReply = new LongList();
        long framesSent, framesEnded, endedInWindow, tokensInWindow, seqGaps, seqRepeats, contentMismatches;
        long errorEvents, firstRepliesInWindow;
        final Map<String, Integer> errorCodes = new TreeMap<>();
        final List<String> problems = new ArrayList<>();
        final CountDownLatch ready = new CountDownLatch(1);

        Conn(String[] chat, String frame) {
            this.chat = chat;
            this.frame = frame;
        }

        void problem(String p) {
            if (problems.size() < 5) problems.add(p);
        }

        synchronized void send() {
            if (!sending || closed) {
                inFlight = false;
                return;
            }
            inFlight = true;
            sentAt = System.nanoTime();
            framesSent++;
            tokens = 0;
            reply.setLength(0);
            ws.sendText(frame, true).whenComplete((w, e) -> {
                if (e != null) {
                    synchronized (this) {
                        problem("send failed: " + e);
                        inFlight = false;
                    }
                }
            });
        }

        @Override
        public CompletionStage<?> onText(WebSocket w, CharSequence data, boolean last) {
            text.append(data);
            if (last) {
                long now = System.nanoTime();
                String event = text.toString();
                text.setLength(0);
                synchronized (this) {
                    handle(event, now);
                }
            }
            w.request(1);
            return null;
        }

        private void handle(String event, long now) {
            String type = stringField(event, "event_type");
            if ("connection_established".equals(type)) {
                expectedSeq = longField(event, "last_seq") + 1;
                established = true;
                ready.countDown();
                return;
            }
            if ("user_created".equals(type)) return;
            long seq = seqOf(event);
            if (seq >= 0 && expectedSeq >= 0) {
                // each frame's work numbers its events from a fresh block (docs/decisions.md): a jump is expected at a
                // message_received, and nowhere else
                if (seq > expectedSeq && !type.equals("message_received")) {
                    seqGaps++;
                    problem("seq gap: expected " + expectedSeq + ", got " + seq + " (" + type + ")");
                } else if (seq < expectedSeq) {
                    seqRepeats++;
                    problem("seq repeat or reorder: expected " + expectedSeq + ", got " + seq + " (" + type + ")");
                }
                expectedSeq = Math.max(expectedSeq, seq + 1);
            }
            boolean measured = sentAt >= measureStart && sentAt < measureEnd;
            boolean inWindow = now >= measureStart && now < measureEnd;
            switch (type == null ? "" : type) {
                case "message_received" -> {
                    receivedAt = now;
                    if (measured) receivedNs.add(now - sentAt);
                }
                case "message_stream_started" -> {
                    startedAt = now;
                    lastTokenAt = now;
                    if (measured) startedNs.add(now - sentAt);
                }
                case "message_stream_token" -> {
                    tokens++;
                    reply.append(unescape(rawStringField(event, "token")));
                    if (inWindow) {
                        tokensInWindow++;
                        gapNs.add(now - lastTokenAt);
                        if (tokens == 1) firstTokenNs.add(now - startedAt);
                        String ts = stringField(event, "timestamp");
                        if (ts != null) {
                            long tsMicros = Instant.parse(ts).toEpochMilli() * 1000;
                            lagUs.add(WALL_BASE_MICROS + (now - NANO_BASE) / 1000 - tsMicros);
                        }
                    }
                    lastTokenAt = now;
                }
                case "message_stream_ended" -> {
                    framesEnded++;
                    String content = unescape(rawStringField(event, "content"));
                    if (!reply.toString().equals(content)) {
                        contentMismatches++;
                        problem("streamed tokens (" + tokens + ", " + reply.length() + " chars) differ from the stored reply ("
                                + (content == null ? "null" : content.length() + " chars") + ")");
                    }
                    if (inWindow) endedInWindow++;
                    if (measured) {
                        frameNs.add(now - sentAt);
                        tokensPerReply.add(tokens);
                        if (firstReply) firstRepliesInWindow++;
                    }
                    firstReply = false;
                    inFlight = false;
                    send();
                }
                case "error" -> {
                    errorEvents++;
                    String code = stringField(event, "code");
                    if (code == null) code = stringField(event, "error_code");
                    errorCodes.merge(String.valueOf(code), 1, Integer::sum);
                    problem("error event: " + (event.length() > 300 ? event.substring(0, 300) : event));
                    // the frame is lost or failed: go on with the next one after a short pause
                    inFlight = false;
                    Thread.ofVirtual().start(() -> {
                        try {
                            Thread.sleep(100);
                        } catch (InterruptedException ignored) {
                        }
                        send();
                    });
                }
                default -> problem("unexpected event " + type);
            }
        }

        @Override
        public CompletionStage<?> onClose(WebSocket w, int code, String reason) {
            closed = true;
            synchronized (this) {
                problem("closed by the server: " + code + " " + reason);
            }
            ready.countDown();
            return null;
        }

        @Override
        public void onError(WebSocket w, Throwable error) {
            closed = true;
            synchronized (this) {
                problem("error: " + error);
            }
            ready.countDown();
        }
    }

    static void stream() throws Exception {
        List<String[]> chats = readChats();
        int conns = Integer.parseInt(opt("conns", null));
        long warmup = Long.parseLong(opt("warmup", "20"));
        long duration = Long.parseLong(opt("duration", "30"));
        long drain = Long.parseLong(opt("drain", "60"));
        String content = opt("content", "Relay?");
        String frame = "{\"content\":\"" + content.replace("\\", "\\\\").replace("\"", "\\\"") + "\"}";
        if (chats.size() < conns) throw new IllegalArgumentException("need " + conns + " chats, have " + chats.size());
        ExecutorService executor = Executors.newFixedThreadPool(Integer.parseInt(opt("threads", "2")));
        HttpClient http = client(executor);
        List<Conn> all = new ArrayList<>();
        long t0 = System.nanoTime();
        for (int i = 0; i < conns; i++) {
            Conn c = new Conn(chats.get(i), frame);
            all.add(c);
            try {
                c.ws = http.newWebSocketBuilder()
                        .connectTimeout(Duration.ofSeconds(30))
                        .buildAsync(wsUri(c.chat), c)
                        .get(60, TimeUnit.SECONDS);
            } catch (Exception e) {
                throw new IllegalStateException("connection " + i + " failed: " + e, e);
            }
        }
        for (Conn c : all) {
            if (!c.ready.await(60, TimeUnit.SECONDS) || !c.established) {
                throw new IllegalStateException("a connection was not established: " + c.problems);
            }
        }
        log(conns + " connections established in " + secs(System.nanoTime() - t0) + " s; warming up " + warmup + " s");
        long start = System.nanoTime();
        for (Conn c : all) c.send();
        Thread.sleep(warmup * 1000);
        Cpu cpu0 = Cpu.sample();
        measureStart = System.nanoTime();
        measureEnd = measureStart + duration * 1_000_000_000L;
        log("measuring " + duration + " s");
        Thread.sleep(duration * 1000);
        Cpu cpu1 = Cpu.sample();
        sending = false;
        long drainEnd = System.nanoTime() + drain * 1_000_000_000L;
        int stuck;
        do {
            Thread.sleep(200);
            stuck = 0;
            for (Conn c : all) {
                synchronized (c) {
                    if (c.inFlight && !c.closed) stuck++;
                }
            }
        } while (stuck > 0 && System.nanoTime() < drainEnd);

        LongList frameNs = new LongList(), receivedNs = new LongList(), startedNs = new LongList();
        LongList firstTokenNs = new LongList(), gapNs = new LongList(), lagUs = new LongList(), tokensPerReply = new LongList();
        long sent = 0, ended = 0, endedInWindow = 0, tokensInWindow = 0, gaps = 0, repeats = 0, mismatches = 0;
        long errorEvents = 0, closed = 0, firstReplies = 0;
        Map<String, Integer> errorCodes = new TreeMap<>();
        List<String> problems = new ArrayList<>();
        for (Conn c : all) {
            synchronized (c) {
                frameNs.addAll(c.frameNs);
                receivedNs.addAll(c.receivedNs);
                startedNs.addAll(c.startedNs);
                firstTokenNs.addAll(c.firstTokenNs);
                gapNs.addAll(c.gapNs);
                lagUs.addAll(c.lagUs);
                tokensPerReply.addAll(c.tokensPerReply);
                sent += c.framesSent;
                ended += c.framesEnded;
                endedInWindow += c.endedInWindow;
                tokensInWindow += c.tokensInWindow;
                gaps += c.seqGaps;
                repeats += c.seqRepeats;
                mismatches += c.contentMismatches;
                errorEvents += c.errorEvents;
                firstReplies += c.firstRepliesInWindow;
                if (c.closed) closed++;
                c.errorCodes.forEach((k, v) -> errorCodes.merge(k, v, Integer::sum));
                for (String p : c.problems) if (problems.size() < 20) problems.add(c.chat[0] + ": " + p);
            }
        }
        String p = opt("prefix", "stream");
        RESULT.put(p + "_connections", String.valueOf(conns));
        RESULT.put(p + "_content", "\"" + content + "\"");
        RESULT.put(p + "_warmup_s", String.valueOf(warmup));
        RESULT.put(p + "_duration_s", String.valueOf(duration));
        RESULT.put(p + "_frames_per_s", String.format("%.1f", endedInWindow / (double) duration));
        RESULT.put(p + "_tokens_per_s", String.format("%.0f", tokensInWindow / (double) duration));
        RESULT.put(p + "_frames_measured", String.valueOf(frameNs.size));
        RESULT.put(p + "_first_replies_measured", String.valueOf(firstReplies));
        long[] tpr = tokensPerReply.sorted();
        RESULT.put(p + "_tokens_per_reply_avg", String.format("%.1f", avg(tpr)));
        RESULT.put(p + "_tokens_per_reply_min", String.valueOf(tpr.length == 0 ? -1 : tpr[0]));
        RESULT.put(p + "_tokens_per_reply_max", String.valueOf(tpr.length == 0 ? -1 : tpr[tpr.length - 1]));
        putLatency(p + "_frame_ms", frameNs.sorted(), 1e6);
        putLatency(p + "_received_ms", receivedNs.sorted(), 1e6);
        putLatency(p + "_started_ms", startedNs.sorted(), 1e6);
        putLatency(p + "_first_token_after_started_ms", firstTokenNs.sorted(), 1e6);
        putLatency(p + "_token_gap_ms", gapNs.sorted(), 1e6);
        putLatency(p + "_token_lag_vs_server_timestamp_ms", lagUs.sorted(), 1e3);
        RESULT.put(p + "_frames_sent_total", String.valueOf(sent));
        RESULT.put(p + "_frames_ended_total", String.valueOf(ended));
        RESULT.put(p + "_not_ended_after_drain", String.valueOf(stuck));
        RESULT.put(p + "_seq_gaps", String.valueOf(gaps));
        RESULT.put(p + "_seq_repeats", String.valueOf(repeats));
        RESULT.put(p + "_content_mismatches", String.valueOf(mismatches));
        RESULT.put(p + "_error_events", String.valueOf(errorEvents));
        RESULT.put(p + "_error_codes", errorCodes.toString().replace(' ', '_'));
        RESULT.put(p + "_closed_by_server", String.valueOf(closed));
        cpu1.putDelta(cpu0, p);
        RESULT.put(p + "_elapsed_s", secs(System.nanoTime() - start));
        for (int i = 0; i < problems.size(); i++) System.err.println("problem " + i + ": " + problems.get(i));
        RESULT.put(p + "_problems_logged", String.valueOf(problems.size()));
        List<CompletableFuture<WebSocket>> closing = new ArrayList<>();
        for (Conn c : all) if (!c.ws.isOutputClosed()) closing.add(c.ws.sendClose(WebSocket.NORMAL_CLOSURE, "bench done"));
        try {
            CompletableFuture.allOf(closing.toArray(CompletableFuture[]::new)).get(20, TimeUnit.SECONDS);
        } catch (Exception e) {
            log("closing: " + e);
        }
        for (Conn c : all) c.ws.abort();
    }

    /** CPU time of the processes named in procs=FILE ("label pid" lines), of this JVM, and of the machine. */
    record Cpu(long nanos, Map<String, Long> ticks, long selfNanos, long machineTicks, String load) {
        static Cpu sample() throws IOException {
            Map<String, Long> ticks = new TreeMap<>();
            String file = OPT.get("procs");
            if (file != null && Files.exists(Path.of(file))) {
                for (String line : Files.readAllLines(Path.of(file))) {
                    String[] f = line.strip().split("\\s+");
                    if (f.length < 2) continue;
                    long t = 0;
                    try {
                        String stat = Files.readString(Path.of("/proc/" + f[1] + "/stat"));
                        String[] s = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                        t = Long.parseLong(s[11]) + Long.parseLong(s[12]);
                    } catch (IOException | RuntimeException gone) {
                        // the process ended
                    }
                    ticks.merge(f[0], t, Long::sum);
                }
            }
            String[] cpu = Files.readAllLines(Path.of("/proc/stat")).getFirst().split("\\s+");
            long busy = Long.parseLong(cpu[1]) + Long.parseLong(cpu[2]) + Long.parseLong(cpu[3])
                    + Long.parseLong(cpu[6]) + Long.parseLong(cpu[7]) + Long.parseLong(cpu[8]);
            long self = ProcessHandle.current().info().totalCpuDuration().map(Duration::toNanos).orElse(0L);
            String load = Files.readString(Path.of("/proc/loadavg")).strip().split(" ")[0];
            return new Cpu(System.nanoTime(), ticks, self, busy, load);
        }

        void putDelta(Cpu before, String p) {
            double hz = Double.parseDouble(opt("clk_tck", "100"));
            double accounted = (selfNanos - before.selfNanos) / 1e9;
            for (var e : ticks.entrySet()) {
                double s = (e.getValue() - before.ticks.getOrDefault(e.getKey(), 0L)) / hz;
                accounted += s;
                RESULT.put(p + "_cpu_s_" + e.getKey(), String.format("%.1f", s));
            }
            double machine = (machineTicks - before.machineTicks) / hz;
            RESULT.put(p + "_cpu_s_client", String.format("%.1f", (selfNanos - before.selfNanos) / 1e9));
            RESULT.put(p + "_cpu_s_machine", String.format("%.1f", machine));
            RESULT.put(p + "_cpu_s_other", String.format("%.1f", Math.max(0, machine - accounted)));
            RESULT.put(p + "_cpu_s_available", String.format("%.1f",
                    Runtime.getRuntime().availableProcessors() * (nanos - before.nanos) / 1e9));
            RESULT.put(p + "_loadavg_start_end", before.load + "/" + load);
        }
    }

    static void putLatency(String name, long[] sorted, double unit) {
        if (sorted.length == 0) {
            RESULT.put(name, "none");
            return;
        }
        RESULT.put(name, String.format("n=%d,avg=%.3f,p50=%.3f,p90=%.3f,p99=%.3f,p999=%.3f,max=%.3f", sorted.length,
                avg(sorted) / unit, pct(sorted, 50) / unit, pct(sorted, 90) / unit, pct(sorted, 99) / unit,
                pct(sorted, 99.9) / unit, sorted[sorted.length - 1] / unit));
    }

    static double avg(long[] v) {
        if (v.length == 0) return 0;
        double s = 0;
        for (long x : v) s += x;
        return s / v.length;
    }

    static long pct(long[] sorted, double p) {
        int i = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
    }

    static String secs(long nanos) {
        return String.format("%.2f", nanos / 1e9);
    }

    // ------------------------------------------------------------------------------------------------------------
    // the few JSON fields needed, by hand (the service writes compact JSON)
    // ------------------------------------------------------------------------------------------------------------
    /** The raw (still escaped) value of the first string field "name"; null when absent. */
    static String rawStringField(String json, String name) {
        String key = "\"" + name + "\":\"";
        int i = json.indexOf(key);
        if (i < 0) return null;
        int start = i + key.length();
        int j = start;
        while (j < json.length()) {
            char c = json.charAt(j);
            if (c == '\\') j += 2;
            else if (c == '"') break;
            else j++;
        }
        return json.substring(start, Math.min(j, json.length()));
    }

    static String stringField(String json, String name) {
        return unescape(rawStringField(json, name));
    }

    static long longField(String json, String name) {
        String key = "\"" + name + "\":";
        int i = json.indexOf(key);
        if (i < 0) return -1;
        int j = i + key.length(), k = j;
        while (k < json.length() && (Character.isDigit(json.charAt(k)) || json.charAt(k) == '-')) k++;
        return k == j ? -1 : Long.parseLong(json.substring(j, k));
    }

    /** "seq" is the last field of a sequenced event (ChatEvent.sequenced); strings before it are escaped. */
    static long seqOf(String json) {
        int i = json.lastIndexOf("\"seq\":");
        if (i < 0) return -1;
        int j = i + 6, k = j;
        while (k < json.length() && Character.isDigit(json.charAt(k))) k++;
        return k == j ? -1 : Long.parseLong(json.substring(j, k));
    }

    static String unescape(String s) {
        if (s == null || s.indexOf('\\') < 0) return s;
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c != '\\' || i + 1 >= s.length()) {
                b.append(c);
                continue;
            }
            char e = s.charAt(++i);
            switch (e) {
                case 'n' -> b.append('\n');
                case 't' -> b.append('\t');
                case 'r' -> b.append('\r');
                case 'b' -> b.append('\b');
                case 'f' -> b.append('\f');
                case 'u' -> {
                    b.append((char) Integer.parseInt(s.substring(i + 1, i + 5), 16));
                    i += 4;
                }
                default -> b.append(e);
            }
        }
        return b.toString();
    }
}
