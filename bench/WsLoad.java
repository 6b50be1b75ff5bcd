import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
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
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * WebSocket load client for /ws/chat (see docs/benchmarks.md, section WebSocket). Runs with the JDK's source
 * launcher (JDK 22+: it compiles bench/Kit.java, the helpers the load clients share, as needed), no dependencies:
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
 *
 * <p>Why not Gatling: it could open and hold the connections, but not check each event's seq against the last one
 * nor add a reply's tokens up against the stored reply, which is what this client is for.
 */
public class WsLoad {

    static final Map<String, String> RESULT = new LinkedHashMap<>();

    public static void main(String[] args) throws Exception {
        String mode = Kit.mode(args, "usage: java bench/WsLoad.java chats|idle|stream key=value...");
        Kit.hardLimit("WsLoad", 1800);
        switch (mode) {
            case "chats" -> chats();
            case "idle" -> idle();
            case "stream" -> stream();
            default -> throw new IllegalArgumentException("unknown mode " + mode);
        }
        Kit.printAndExit(RESULT);
    }

    // ------------------------------------------------------------------------------------------------------------
    // chats
    // ------------------------------------------------------------------------------------------------------------
    static void chats() throws Exception {
        String base = Kit.opt("base", null), key = Kit.opt("key", null);
        int n = Integer.parseInt(Kit.opt("n", null));
        int concurrency = Integer.parseInt(Kit.opt("concurrency", "16"));
        String prefix = Kit.opt("prefix", "u");
        ExecutorService executor = Executors.newFixedThreadPool(2);
        HttpClient http = Kit.httpClient(executor, Duration.ofSeconds(10));
        long t0 = System.nanoTime();
        String[][] chats = Kit.createChats(http, base, key, n, concurrency, i -> prefix + i);
        Files.write(Path.of(Kit.opt("file", null)), Arrays.stream(chats).map(c -> c[0] + " " + c[1]).toList());
        RESULT.put("chats_created", String.valueOf(n));
        RESULT.put("chats_seconds", Kit.secs(System.nanoTime() - t0));
        executor.shutdownNow();
    }

    static List<String[]> readChats() throws IOException {
        List<String[]> chats = new ArrayList<>();
        for (String line : Files.readAllLines(Path.of(Kit.opt("chats", null)))) {
            if (!line.isBlank()) chats.add(line.strip().split(" "));
        }
        return chats;
    }

    static URI wsUri(String[] chat) {
        return Kit.wsUri(Kit.opt("ws", null), Kit.opt("key", null), chat[0], chat[1]);
    }

    // ------------------------------------------------------------------------------------------------------------
    // idle
    // ------------------------------------------------------------------------------------------------------------
    static void idle() throws Exception {
        List<String[]> chats = readChats();
        int n = Integer.parseInt(Kit.opt("n", null));
        // a node admits 8 handshakes at a time and answers more 1013 "come back later" (docs/api.md): 8 in flight
        int concurrency = Integer.parseInt(Kit.opt("concurrency", "8"));
        long hold = Long.parseLong(Kit.opt("hold", "600"));
        long openTimeout = Long.parseLong(Kit.opt("open_timeout", "300"));
        Path stop = Path.of(Kit.opt("stop", "/nonexistent-stop-file"));
        ExecutorService executor = Executors.newFixedThreadPool(Integer.parseInt(Kit.opt("threads", "4")));
        HttpClient http = Kit.httpClient(executor, Duration.ofSeconds(10));
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
                Kit.log("opening did not finish within " + openTimeout + " s");
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
                        String type = Kit.stringField(event, "event_type");
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
                            if (errors.sum() <= 5) Kit.log("error event: " + event);
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
                            if (failedOpen.sum() < 5) Kit.log("connect failed: " + error);
                            listener.onError(null, error);
                        } else {
                            sockets.add(ws);
                        }
                    });
            if ((i + 1) % 1000 == 0) Kit.log("requested " + (i + 1) + ", established " + established.sum());
        }
        opened.await(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        long openNanos = System.nanoTime() - t0;
        RESULT.put("idle_requested", String.valueOf(n));
        RESULT.put("idle_established", String.valueOf(established.sum()));
        RESULT.put("idle_failed_open", String.valueOf(failedOpen.sum()));
        RESULT.put("idle_open_seconds", Kit.secs(openNanos));
        RESULT.put("idle_open_rate_per_s", String.format("%.0f", established.sum() / (openNanos / 1e9)));
        Runtime rt = Runtime.getRuntime();
        System.out.println("READY established=" + established.sum() + " failed=" + failedOpen.sum()
                + " seconds=" + Kit.secs(openNanos) + " client_heap_used_mib=" + (rt.totalMemory() - rt.freeMemory()) / 1048576);
        System.out.flush();
        long holdEnd = System.nanoTime() + hold * 1_000_000_000L;
        long minOpen = Long.MAX_VALUE;
        while (System.nanoTime() < holdEnd && !Files.exists(stop)) {
            Thread.sleep(1000);
            long open = sockets.stream().filter(ws -> !ws.isInputClosed()).count();
            minOpen = Math.min(minOpen, open);
        }
        long heldNanos = System.nanoTime() - t0 - openNanos;
        RESULT.put("idle_held_seconds", Kit.secs(heldNanos));
        RESULT.put("idle_min_open_during_hold", String.valueOf(minOpen == Long.MAX_VALUE ? -1 : minOpen));
        RESULT.put("idle_closed_by_server", String.valueOf(closedByServer.sum()));
        RESULT.put("idle_error_events", String.valueOf(errors.sum()));
        RESULT.put("idle_other_events", String.valueOf(otherEvents.sum()));
        RESULT.put("idle_pings_received", String.valueOf(pings.sum()));
        RESULT.put("idle_close_codes", closeCodes.toString().replace(' ', '_'));
        // close them all, bounded
        Kit.closeAll(List.copyOf(sockets), "bench done", 60);
        Thread.sleep(2000);
        synchronized (sockets) {
            sockets.forEach(WebSocket::abort);
        }
    }

    // ------------------------------------------------------------------------------------------------------------
    // stream
    // ------------------------------------------------------------------------------------------------------------
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
        final Kit.LongList frameNs = new Kit.LongList(), receivedNs = new Kit.LongList();
        final Kit.LongList startedNs = new Kit.LongList(), firstTokenNs = new Kit.LongList();
        final Kit.LongList gapNs = new Kit.LongList(), lagUs = new Kit.LongList(), tokensPerReply = new Kit.LongList();
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
            String type = Kit.stringField(event, "event_type");
            if ("connection_established".equals(type)) {
                expectedSeq = Kit.longField(event, "last_seq") + 1;
                established = true;
                ready.countDown();
                return;
            }
            if ("user_created".equals(type)) return;
            long seq = Kit.seqOf(event);
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
                    reply.append(Kit.unescape(Kit.rawStringField(event, "token")));
                    if (inWindow) {
                        tokensInWindow++;
                        gapNs.add(now - lastTokenAt);
                        if (tokens == 1) firstTokenNs.add(now - startedAt);
                        String ts = Kit.stringField(event, "timestamp");
                        if (ts != null) {
                            long tsMicros = Instant.parse(ts).toEpochMilli() * 1000;
                            lagUs.add(Kit.wallMicros(now) - tsMicros);
                        }
                    }
                    lastTokenAt = now;
                }
                case "message_stream_ended" -> {
                    framesEnded++;
                    String content = Kit.unescape(Kit.rawStringField(event, "content"));
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
                    String code = Kit.stringField(event, "code");
                    if (code == null) code = Kit.stringField(event, "error_code");
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
        int conns = Integer.parseInt(Kit.opt("conns", null));
        long warmup = Long.parseLong(Kit.opt("warmup", "20"));
        long duration = Long.parseLong(Kit.opt("duration", "30"));
        long drain = Long.parseLong(Kit.opt("drain", "60"));
        String content = Kit.opt("content", "Relay?");
        String frame = "{\"content\":\"" + content.replace("\\", "\\\\").replace("\"", "\\\"") + "\"}";
        if (chats.size() < conns) throw new IllegalArgumentException("need " + conns + " chats, have " + chats.size());
        ExecutorService executor = Executors.newFixedThreadPool(Integer.parseInt(Kit.opt("threads", "2")));
        HttpClient http = Kit.httpClient(executor, Duration.ofSeconds(10));
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
        Kit.log(conns + " connections established in " + Kit.secs(System.nanoTime() - t0) + " s; warming up " + warmup + " s");
        long start = System.nanoTime();
        for (Conn c : all) c.send();
        Thread.sleep(warmup * 1000);
        Kit.Cpu cpu0 = Kit.Cpu.sample();
        measureStart = System.nanoTime();
        measureEnd = measureStart + duration * 1_000_000_000L;
        Kit.log("measuring " + duration + " s");
        Thread.sleep(duration * 1000);
        Kit.Cpu cpu1 = Kit.Cpu.sample();
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

        Kit.LongList frameNs = new Kit.LongList(), receivedNs = new Kit.LongList(), startedNs = new Kit.LongList();
        Kit.LongList firstTokenNs = new Kit.LongList(), gapNs = new Kit.LongList(), lagUs = new Kit.LongList();
        Kit.LongList tokensPerReply = new Kit.LongList();
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
        String p = Kit.opt("prefix", "stream");
        RESULT.put(p + "_connections", String.valueOf(conns));
        RESULT.put(p + "_content", "\"" + content + "\"");
        RESULT.put(p + "_warmup_s", String.valueOf(warmup));
        RESULT.put(p + "_duration_s", String.valueOf(duration));
        RESULT.put(p + "_frames_per_s", String.format("%.1f", endedInWindow / (double) duration));
        RESULT.put(p + "_tokens_per_s", String.format("%.0f", tokensInWindow / (double) duration));
        RESULT.put(p + "_frames_measured", String.valueOf(frameNs.size));
        RESULT.put(p + "_first_replies_measured", String.valueOf(firstReplies));
        long[] tpr = tokensPerReply.sorted();
        RESULT.put(p + "_tokens_per_reply_avg", String.format("%.1f", Kit.avg(tpr)));
        RESULT.put(p + "_tokens_per_reply_min", String.valueOf(tpr.length == 0 ? -1 : tpr[0]));
        RESULT.put(p + "_tokens_per_reply_max", String.valueOf(tpr.length == 0 ? -1 : tpr[tpr.length - 1]));
        RESULT.put(p + "_frame_ms", Kit.summary(frameNs.sorted(), 1e6));
        RESULT.put(p + "_received_ms", Kit.summary(receivedNs.sorted(), 1e6));
        RESULT.put(p + "_started_ms", Kit.summary(startedNs.sorted(), 1e6));
        RESULT.put(p + "_first_token_after_started_ms", Kit.summary(firstTokenNs.sorted(), 1e6));
        RESULT.put(p + "_token_gap_ms", Kit.summary(gapNs.sorted(), 1e6));
        RESULT.put(p + "_token_lag_vs_server_timestamp_ms", Kit.summary(lagUs.sorted(), 1e3));
        RESULT.put(p + "_frames_sent_total", String.valueOf(sent));
        RESULT.put(p + "_frames_ended_total", String.valueOf(ended));
        RESULT.put(p + "_not_ended_after_drain", String.valueOf(stuck));
        RESULT.put(p + "_seq_gaps", String.valueOf(gaps));
        RESULT.put(p + "_seq_repeats", String.valueOf(repeats));
        RESULT.put(p + "_content_mismatches", String.valueOf(mismatches));
        RESULT.put(p + "_error_events", String.valueOf(errorEvents));
        RESULT.put(p + "_error_codes", errorCodes.toString().replace(' ', '_'));
        RESULT.put(p + "_closed_by_server", String.valueOf(closed));
        cpu1.putDelta(cpu0, p, RESULT);
        RESULT.put(p + "_elapsed_s", Kit.secs(System.nanoTime() - start));
        for (int i = 0; i < problems.size(); i++) System.err.println("problem " + i + ": " + problems.get(i));
        RESULT.put(p + "_problems_logged", String.valueOf(problems.size()));
        Kit.closeAll(all.stream().map(c -> c.ws).toList(), "bench done", 20);
        for (Conn c : all) c.ws.abort();
    }
}
