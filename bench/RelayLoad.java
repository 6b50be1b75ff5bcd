import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
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
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.GZIPOutputStream;

/**
 * Load client of the token relay across two nodes (bench/relay.sh; see docs/cluster.md). Runs with the JDK's source
 * launcher, no dependencies:
 *
 * <pre>
 *   java bench/RelayLoad.java base_a=http://127.0.0.1:18185 base_b=http://127.0.0.1:18186 key=crs_... streams=100 \
 *        warmup=10 duration=60 [rounds=N] content="Relay?" out=FILE raw=FILE.tsv.gz procs=FILE
 * </pre>
 *
 * Creates {@code streams} chats (POST /api/v1/chats on node A), opens for each chat one WebSocket on node A and one on
 * node B, in this one process (one clock, {@link System#nanoTime}), then the node-A socket of every chat sends a frame,
 * and the next one when the previous reply's {@code message_stream_ended} reached it (closed loop, one frame at a time
 * per chat). For every (chat, seq) it keeps the arrival time on either socket. The sockets are read by two
 * HttpClients, crossed by the chat's parity, so that a stalled client thread can be told from a stalled node (see
 * run()). After {@code warmup} seconds (not measured) it measures the frames sent during {@code duration} seconds, or
 * {@code rounds} frames per chat when given; then it stops sending and waits (at most {@code drain} seconds) until
 * every reply has ended on A and reached B.
 *
 * <p>Reported: arrival at B minus arrival at A of every token event (and of every event) of the measured frames, signed
 * and absolute; arrival minus the event's server {@code timestamp} on either side; the sender's latencies (send ->
 * message_received / stream started / stream ended on A, ended on B); events one side got and the other did not, seqs
 * skipped inside a reply (its events are numbered from one block, received .. ended), seqs repeated or out of order
 * (all must be 0, counted over the whole run, warm-up included); the CPU of the processes named in
 * {@code procs=FILE} ("label pid" lines) over the measured window. Results are "key=value" lines (stdout, and
 * {@code out=FILE}); {@code raw=FILE.gz} gets one line per measured event. Every phase has a deadline and {@code limit}
 * (seconds) is a hard stop: the program always ends by itself.
 */
public class RelayLoad {

    static final Map<String, String> OPT = new LinkedHashMap<>();
    static final Map<String, String> RESULT = new LinkedHashMap<>();
    /** Wall clock in microseconds from nanoTime, to compare with the server's timestamps (same machine). */
    static final long WALL_BASE_MICROS;
    static final long NANO_BASE = System.nanoTime();

    static {
        Instant now = Instant.now();
        WALL_BASE_MICROS = now.getEpochSecond() * 1_000_000L + now.getNano() / 1000;
    }

    /** Tokens with abs(B - A) above this are counted by the chat's parity (which client thread read which side). */
    static final long OUTLIER_NS = Long.parseLong(System.getProperty("relay.outlier-ms", "10")) * 1_000_000L;

    static final byte RECEIVED = 1, STARTED = 2, TOKEN = 3, ENDED = 4, ERROR = 5, OTHER = 6;
    static final String[] TYPE_NAMES = {"?", "received", "started", "token", "ended", "error", "other"};

    enum Phase { WARMUP, MEASURE, STOP }

    static volatile Phase phase = Phase.WARMUP;
    static volatile long measureStart = Long.MAX_VALUE;
    static int rounds;
    static CountDownLatch roundsDone;

    public static void main(String[] args) throws Exception {
        for (String arg : args) {
            int eq = arg.indexOf('=');
            if (eq < 0) throw new IllegalArgumentException("not key=value: " + arg);
            OPT.put(arg.substring(0, eq), arg.substring(eq + 1));
        }
        long limit = Long.parseLong(opt("limit", "900"));
        Thread killer = Thread.ofPlatform().daemon().start(() -> {
            try {
                Thread.sleep(limit * 1000);
                System.err.println("RelayLoad: hard time limit of " + limit + " s reached; exiting");
                System.out.flush();
                Runtime.getRuntime().halt(3);
            } catch (InterruptedException ignored) {
            }
        });
        try {
            run();
        } catch (Exception | Error e) {
            e.printStackTrace();
            System.err.flush();
            System.exit(1);   // the HttpClients' threads would keep the JVM up until the hard limit
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

    static HttpClient client(int threads) {
        return HttpClient.newBuilder()
                .executor(Executors.newFixedThreadPool(threads, Thread.ofPlatform().daemon().factory()))
                .connectTimeout(Duration.ofSeconds(10))
                .version(HttpClient.Version.HTTP_1_1)
                .build();
    }

    // ------------------------------------------------------------------------------------------------------------
    // the chats
    // ------------------------------------------------------------------------------------------------------------
    static String[][] createChats(HttpClient http, String base, String key, int n) throws Exception {
        String[][] chats = new String[n][];
        Semaphore inFlight = new Semaphore(16);
        AtomicInteger failed = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(n);
        String run = Long.toString(System.currentTimeMillis(), 36);
        for (int i = 0; i < n; i++) {
            if (!inFlight.tryAcquire(60, TimeUnit.SECONDS)) throw new IllegalStateException("chat creation stalled");
            int index = i;
            String user = "relay-" + run + "-" + i;
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
                    chats[index] = new String[] {id, user};
                }
                inFlight.release();
                done.countDown();
            });
        }
        if (!done.await(120, TimeUnit.SECONDS)) throw new IllegalStateException("chat creation did not finish");
        if (failed.get() > 0) throw new IllegalStateException(failed.get() + " chats were not created");
        return chats;
    }

    static URI wsUri(String ws, String[] chat) {
        return URI.create(ws + "?api_key=" + URLEncoder.encode(opt("key", null), StandardCharsets.UTF_8)
                + "&user_id=" + URLEncoder.encode(chat[1], StandardCharsets.UTF_8) + "&chat_id=" + chat[0]);
    }

    // ------------------------------------------------------------------------------------------------------------
    // one chat: its two sockets and what each received, by seq
    // ------------------------------------------------------------------------------------------------------------
    static final class LongList {
        long[] values = new long[256];
        int size;

        void add(long v) {
            if (size == values.length) values = Arrays.copyOf(values, size * 2);
            values[size++] = v;
        }

        long[] sorted() {
            long[] s = Arrays.copyOf(values, size);
            Arrays.sort(s);
            return s;
        }
    }

    /** A frame sent by the chat's node-A socket, and the seqs of its reply. */
    static final class Frame {
        final long sentAt;
        final boolean measured;
        long firstSeq = -1, receivedSeq = -1, startedSeq = -1, endedSeq = -1, receivedAt, startedAt, endedAt;
        int tokens;

        Frame(long sentAt, boolean measured) {
            this.sentAt = sentAt;
            this.measured = measured;
        }
    }

    static final class Chat {
        final int index;
        final String[] chat;
        final String frameText;
        final Side a = new Side(this, "A"), b = new Side(this, "B");
        /**
         * Events are kept in slots, in the order of their first arrival on either side; seqs increase strictly but
         * are not dense (each frame takes a fresh block of 1,000 numbers: docs/decisions.md), hence the map.
         */
        final Map<Long, Integer> slotOf = new HashMap<>();
        /** Events up to this seq came before the sockets opened (the connections' last_seq); -1: not open yet. */
        long base = -1;
        long[] seqs = new long[1024], atA = new long[1024], atB = new long[1024], serverMicros = new long[1024];
        byte[] type = new byte[1024];
        boolean[] measured = new boolean[1024];
        int slots;
        final List<Frame> frames = new ArrayList<>();
        Frame current;       // in flight on A
        int measuredSent;
        boolean roundsCounted;
        long errorEvents;
        final List<String> problems = new ArrayList<>();

        Chat(int index, String[] chat, String frameText) {
            this.index = index;
            this.chat = chat;
            this.frameText = frameText;
        }

        void problem(String p) {
            if (problems.size() < 5) problems.add(p);
        }

        /** The slot of a seq, made when new. */
        int slot(long seq) {
            Integer i = slotOf.get(seq);
            if (i != null) return i;
            if (slots == atA.length) {
                int n = slots * 2;
                seqs = Arrays.copyOf(seqs, n);
                atA = Arrays.copyOf(atA, n);
            atB = Arrays.copyOf(atB, n);
            serverMicros = Arrays.copyOf(serverMicros, n);
            type = Arrays.copyOf(type, n);
                measured = Arrays.copyOf(measured, n);
            }
            seqs[slots] = seq;
            slotOf.put(seq, slots);
            return slots++;
        }

        /** Whether the seq was received on the side ({@code a}: A, else B). */
        boolean has(long seq, boolean onA) {
            Integer i = slotOf.get(seq);
            return i != null && (onA ? atA[i] : atB[i]) != 0;
        }

        /** Sends the next frame on A if the phase allows; called with the chat's lock held. */
        void sendNext() {
            current = null;
            boolean measure;
            switch (phase) {
                case WARMUP -> measure = false;
                case MEASURE -> {
                    if (rounds > 0 && measuredSent >= rounds) {
                        if (!roundsCounted) {
                            roundsCounted = true;
                            roundsDone.countDown();
                        }
                        return;
                    }
                    measure = true;
                }
                default -> {
                    return;
                }
            }
            if (a.closed) return;
            if (measure) measuredSent++;
            Frame f = new Frame(System.nanoTime(), measure);
            frames.add(f);
            current = f;
            a.ws.sendText(frameText, true).whenComplete((w, e) -> {
                if (e != null) {
                    synchronized (this) {
                        problem("send failed: " + e);
                        if (current == f) current = null;
                    }
                }
            });
        }

        /** Whether nothing is in flight and B has everything A has. */
        synchronized boolean settled() {
            if (a.closed || b.closed) return true;
            return current == null && b.maxSeq >= a.maxSeq;
        }

        /** An event with a seq, arrived at {@code side} at {@code now}. */
        synchronized void arrived(Side side, long seq, byte kind, long now, long micros) {
            if (base < 0 || seq <= base) {
                side.beforeStart++;
                problem(side.name + ": seq " + seq + " not above the connection's last_seq " + base);
                return;
            }
            int i = slot(seq);
            long[] at = side == a ? atA : atB;
            if (at[i] != 0) {
                side.repeats++;
                problem(side.name + ": seq " + seq + " again");
                return;
            }
            at[i] = now;
            type[i] = kind;
            if (micros != 0) serverMicros[i] = micros;
            if (seq < side.maxSeq) {
                side.outOfOrder++;
                problem(side.name + ": seq " + seq + " after " + side.maxSeq);
            }
            side.maxSeq = Math.max(side.maxSeq, seq);
            if (side != a) return;
            // the sender's side: the events of the frame in flight
            Frame f = current;
            if (f == null) {
                if (kind != ERROR) problem("A: event " + TYPE_NAMES[kind] + " seq " + seq + " with no frame in flight");
                return;
            }
            measured[i] = f.measured;
            if (f.firstSeq < 0) f.firstSeq = seq;
            switch (kind) {
                case RECEIVED -> {
                    f.receivedSeq = seq;
                    f.receivedAt = now;
                }
                case STARTED -> {
                    f.startedSeq = seq;
                    f.startedAt = now;
                }
                case TOKEN -> f.tokens++;
                case ENDED -> {
                    f.endedSeq = seq;
                    f.endedAt = now;
                    sendNext();
                }
                case ERROR -> frameFailed();
                default -> {
                }
            }
        }

        /** The frame in flight failed (an error event): the next one after a short pause. */
        void frameFailed() {
            errorEvents++;
            current = null;
            Thread.ofVirtual().start(() -> {
                try {
                    Thread.sleep(100);
                } catch (InterruptedException ignored) {
                }
                synchronized (this) {
                    if (current == null) sendNext();
                }
            });
        }
    }

    static final class Side implements WebSocket.Listener {
        final Chat chat;
        final String name;
        final StringBuilder text = new StringBuilder();
        final CountDownLatch ready = new CountDownLatch(1);
        WebSocket ws;
        volatile boolean established, closed;
        long lastSeq = -1;
        long maxSeq = -1;
        long repeats, outOfOrder, beforeStart, unsequenced;

        Side(Chat chat, String name) {
            this.chat = chat;
            this.name = name;
        }

        @Override
        public CompletionStage<?> onText(WebSocket w, CharSequence data, boolean last) {
            if (last && text.isEmpty()) {
                handle(data.toString(), System.nanoTime());
            } else {
                text.append(data);
                if (last) {
                    long now = System.nanoTime();
                    String event = text.toString();
                    text.setLength(0);
                    handle(event, now);
                }
            }
            w.request(1);
            return null;
        }

        private void handle(String event, long now) {
            String type = stringField(event, "event_type");
            if ("connection_established".equals(type)) {
                lastSeq = longField(event, "last_seq");
                established = true;
                ready.countDown();
                return;
            }
            long seq = seqOf(event);
            byte kind = switch (type == null ? "" : type) {
                case "message_received" -> RECEIVED;
                case "message_stream_started" -> STARTED;
                case "message_stream_token" -> TOKEN;
                case "message_stream_ended" -> ENDED;
                case "error" -> ERROR;
                default -> OTHER;
            };
            if (kind == ERROR) {
                synchronized (chat) {
                    chat.problem(name + ": error event " + (event.length() > 300 ? event.substring(0, 300) : event));
                }
            }
            if (seq < 0) {
                synchronized (chat) {
                    unsequenced++;
                    if (!"user_created".equals(type)) chat.problem(name + ": event without seq: " + type);
                    if (kind == ERROR && this == chat.a) chat.frameFailed();   // a refused frame (a limit, say)
                }
                return;
            }
            long micros = 0;
            if (kind == TOKEN) {
                String ts = stringField(event, "timestamp");
                if (ts != null) {
                    Instant t = Instant.parse(ts);
                    micros = t.getEpochSecond() * 1_000_000L + t.getNano() / 1000;
                }
            }
            chat.arrived(this, seq, kind, now, micros);
        }

        @Override
        public CompletionStage<?> onClose(WebSocket w, int code, String reason) {
            closed = true;
            synchronized (chat) {
                chat.problem(name + ": closed by the server: " + code + " " + reason);
            }
            ready.countDown();
            return null;
        }

        @Override
        public void onError(WebSocket w, Throwable error) {
            closed = true;
            synchronized (chat) {
                chat.problem(name + ": error: " + error);
            }
            ready.countDown();
        }
    }

    // ------------------------------------------------------------------------------------------------------------
    // the run
    // ------------------------------------------------------------------------------------------------------------
    static void run() throws Exception {
        String baseA = opt("base_a", null), baseB = opt("base_b", null), key = opt("key", null);
        String wsA = opt("ws_a", baseA.replaceFirst("^http", "ws") + "/ws/chat");
        String wsB = opt("ws_b", baseB.replaceFirst("^http", "ws") + "/ws/chat");
        int streams = Integer.parseInt(opt("streams", "100"));
        long warmup = Long.parseLong(opt("warmup", "10"));
        long duration = Long.parseLong(opt("duration", "60"));
        rounds = Integer.parseInt(opt("rounds", "0"));
        long maxMeasure = Long.parseLong(opt("max_measure", "600"));
        long drain = Long.parseLong(opt("drain", "30"));
        int threads = Integer.parseInt(opt("threads", "2"));
        String content = opt("content", "Relay?");
        String frameText = "{\"content\":\"" + content.replace("\\", "\\\\").replace("\"", "\\\"") + "\"}";
        roundsDone = new CountDownLatch(rounds > 0 ? streams : 0);

        // Two HttpClients (each a selector thread and an executor), crossed: an even chat's A socket and an odd chat's B
        // socket are read by the first, the others by the second. A stall of one client thread then delays A on half
        // of the chats and B on the other half (B - A of both signs at once, split by the chat's parity), while a stall
        // of a node delays that node's side on every chat: the outliers by parity below tell the two apart.
        HttpClient http1 = client(threads), http2 = client(threads);
        long t0 = System.nanoTime();
        String[][] ids = createChats(http1, baseA, key, streams);
        log(streams + " chats created on node A in " + secs(System.nanoTime() - t0) + " s");
        if (OPT.containsKey("chats")) {
            List<String> lines = new ArrayList<>();
            for (String[] c : ids) lines.add(c[0] + " " + c[1]);
            Files.write(Path.of(OPT.get("chats")), lines);
        }

        List<Chat> chats = new ArrayList<>();
        t0 = System.nanoTime();
        for (int i = 0; i < streams; i++) {
            Chat c = new Chat(i, ids[i], frameText);
            chats.add(c);
            try {
                HttpClient forA = i % 2 == 0 ? http1 : http2, forB = i % 2 == 0 ? http2 : http1;
                c.b.ws = forB.newWebSocketBuilder().connectTimeout(Duration.ofSeconds(30))
                        .buildAsync(wsUri(wsB, c.chat), c.b).get(60, TimeUnit.SECONDS);
                c.a.ws = forA.newWebSocketBuilder().connectTimeout(Duration.ofSeconds(30))
                        .buildAsync(wsUri(wsA, c.chat), c.a).get(60, TimeUnit.SECONDS);
            } catch (Exception e) {
                throw new IllegalStateException("chat " + i + ": connecting failed: " + e, e);
            }
        }
        long lastSeqMismatch = 0;
        for (Chat c : chats) {
            for (Side s : List.of(c.a, c.b)) {
                if (!s.ready.await(60, TimeUnit.SECONDS) || !s.established) {
                    throw new IllegalStateException("chat " + c.index + ": socket " + s.name + " not established: " + c.problems);
                }
            }
            synchronized (c) {
                if (c.a.lastSeq != c.b.lastSeq) {
                    lastSeqMismatch++;
                    c.problem("last_seq A " + c.a.lastSeq + " B " + c.b.lastSeq);
                }
                c.base = Math.max(c.a.lastSeq, c.b.lastSeq);
                c.a.maxSeq = c.a.lastSeq;
                c.b.maxSeq = c.b.lastSeq;
            }
        }
        log(2 * streams + " sockets established (" + streams + " on A, " + streams + " on B) in "
                + secs(System.nanoTime() - t0) + " s; warming up " + warmup + " s");

        long start = System.nanoTime();
        for (Chat c : chats) {
            synchronized (c) {
                c.sendNext();
            }
        }
        Thread.sleep(warmup * 1000);
        Cpu cpu0 = Cpu.sample();
        measureStart = System.nanoTime();
        phase = Phase.MEASURE;
        long measureEnd;
        if (rounds > 0) {
            log("measuring " + rounds + " frames per chat (at most " + maxMeasure + " s)");
            if (!roundsDone.await(maxMeasure, TimeUnit.SECONDS)) {
                log("not every chat sent its " + rounds + " frames within " + maxMeasure + " s; " + roundsDone.getCount() + " did not");
            }
            measureEnd = System.nanoTime();
            phase = Phase.STOP;
        } else {
            log("measuring " + duration + " s");
            Thread.sleep(duration * 1000);
            phase = Phase.STOP;
            measureEnd = System.nanoTime();
        }
        Cpu cpu1 = Cpu.sample();
        log("measure over after " + secs(measureEnd - measureStart) + " s; draining (at most " + drain + " s)");
        long drainEnd = System.nanoTime() + drain * 1_000_000_000L;
        int unsettled;
        do {
            Thread.sleep(100);
            unsettled = 0;
            for (Chat c : chats) if (!c.settled()) unsettled++;
        } while (unsettled > 0 && System.nanoTime() < drainEnd);
        Thread.sleep(500);   // a late repeat or stray event would still be counted
        log("drained; " + unsettled + " chats not settled");

        analyse(chats, measureEnd, cpu0, cpu1, unsettled, lastSeqMismatch, start);

        List<CompletableFuture<WebSocket>> closing = new ArrayList<>();
        for (Chat c : chats) {
            for (Side s : List.of(c.a, c.b)) {
                if (s.ws != null && !s.ws.isOutputClosed()) closing.add(s.ws.sendClose(WebSocket.NORMAL_CLOSURE, "bench done"));
            }
        }
        try {
            CompletableFuture.allOf(closing.toArray(CompletableFuture[]::new)).get(20, TimeUnit.SECONDS);
        } catch (Exception e) {
            log("closing: " + e);
        }
        for (Chat c : chats) {
            if (c.a.ws != null) c.a.ws.abort();
            if (c.b.ws != null) c.b.ws.abort();
        }
    }

    static long wallMicros(long nanoTime) {
        return WALL_BASE_MICROS + (nanoTime - NANO_BASE) / 1000;
    }

    static void analyse(List<Chat> chats, long measureEnd, Cpu cpu0, Cpu cpu1, int unsettled, long lastSeqMismatch,
            long start) throws IOException {
        LongList tokDiff = new LongList(), tokAbs = new LongList(), allDiff = new LongList(), allAbs = new LongList();
        LongList lagA = new LongList(), lagB = new LongList();
        LongList sendReceived = new LongList(), sendStarted = new LongList(), sendEndedA = new LongList();
        LongList sendEndedB = new LongList(), endedBminusA = new LongList(), tokensPerReply = new LongList();
        long missingA = 0, missingB = 0, holesA = 0, holesB = 0, repeatsA = 0, repeatsB = 0, oooA = 0, oooB = 0, beforeStart = 0;
        long unsequenced = 0, errorEvents = 0, closed = 0, framesMeasured = 0, framesNotEnded = 0, framesSent = 0;
        long[][] outliers = new long[2][2];   // [chat parity][0: A later, 1: B later]
        long tokensBFirst = 0, tokensWithin1ms = 0, tokensWithin10ms = 0, tokensOver100ms = 0;
        long eventsMeasured = 0;
        Map<String, Long> byType = new TreeMap<>();
        List<String> problems = new ArrayList<>();
        String raw = OPT.get("raw");
        BufferedWriter rawOut = raw == null ? null : new BufferedWriter(new OutputStreamWriter(
                new GZIPOutputStream(Files.newOutputStream(Path.of(raw)), 1 << 16), StandardCharsets.UTF_8), 1 << 16);
        if (rawOut != null) {
            rawOut.write("# chat\tseq\ttype\tat_a_us\tat_b_us\tserver_ts_us (microseconds since the measure's start; -1: not received)\n");
        }
        for (Chat c : chats) {
            synchronized (c) {
                for (int i = 0; i < c.slots; i++) {
                    boolean hasA = c.atA[i] != 0, hasB = c.atB[i] != 0;
                    if (!hasA) missingA++;
                    if (!hasB) missingB++;
                    if ((!hasA || !hasB) && problems.size() < 20) {
                        problems.add("chat " + c.index + ": seq " + c.seqs[i] + " (" + TYPE_NAMES[c.type[i]] + ") missing on "
                                + (hasA ? "B" : "A"));
                    }
                    if (!c.measured[i] || !hasA || !hasB) continue;
                    eventsMeasured++;
                    byType.merge(TYPE_NAMES[c.type[i]], 1L, Long::sum);
                    long d = c.atB[i] - c.atA[i];
                    allDiff.add(d);
                    allAbs.add(Math.abs(d));
                    if (c.type[i] == TOKEN) {
                        tokDiff.add(d);
                        tokAbs.add(Math.abs(d));
                        if (d < 0) tokensBFirst++;
                        if (Math.abs(d) <= 1_000_000) tokensWithin1ms++;
                        if (Math.abs(d) <= 10_000_000) tokensWithin10ms++;
                        if (Math.abs(d) > 100_000_000) tokensOver100ms++;
                        if (Math.abs(d) > OUTLIER_NS) outliers[c.index % 2][d > 0 ? 1 : 0]++;
                        if (c.serverMicros[i] != 0) {
                            lagA.add(wallMicros(c.atA[i]) - c.serverMicros[i]);
                            lagB.add(wallMicros(c.atB[i]) - c.serverMicros[i]);
                        }
                    }
                    if (rawOut != null) {
                        long ts = c.serverMicros[i] == 0 ? -1 : c.serverMicros[i] - wallMicros(measureStart);
                        rawOut.write(c.index + "\t" + c.seqs[i] + "\t" + TYPE_NAMES[c.type[i]] + "\t"
                                + (c.atA[i] - measureStart) / 1000 + "\t" + (c.atB[i] - measureStart) / 1000 + "\t" + ts + "\n");
                    }
                }
                repeatsA += c.a.repeats;
                repeatsB += c.b.repeats;
                oooA += c.a.outOfOrder;
                oooB += c.b.outOfOrder;
                beforeStart += c.a.beforeStart + c.b.beforeStart;
                unsequenced += c.a.unsequenced + c.b.unsequenced;
                errorEvents += c.errorEvents;
                if (c.a.closed) closed++;
                if (c.b.closed) closed++;
                framesSent += c.frames.size();
                for (Frame f : c.frames) {
                    if (f.endedSeq < 0) {
                        framesNotEnded++;
                        continue;
                    }
                    // a reply's events are numbered from one block: received .. ended with no number skipped
                    long first = f.receivedSeq >= 0 ? f.receivedSeq : f.firstSeq;
                    for (long q = first; q <= f.endedSeq; q++) {
                        if (!c.has(q, true)) {
                            holesA++;
                            if (problems.size() < 20) problems.add("chat " + c.index + ": seq " + q + " of a reply not on A");
                        }
                        if (!c.has(q, false)) {
                            holesB++;
                            if (problems.size() < 20) problems.add("chat " + c.index + ": seq " + q + " of a reply not on B");
                        }
                    }
                    if (!f.measured) continue;
                    framesMeasured++;
                    tokensPerReply.add(f.tokens);
                    if (f.receivedSeq >= 0) sendReceived.add(f.receivedAt - f.sentAt);
                    if (f.startedSeq >= 0) sendStarted.add(f.startedAt - f.sentAt);
                    sendEndedA.add(f.endedAt - f.sentAt);
                    Integer e = c.slotOf.get(f.endedSeq);
                    if (e != null && c.atB[e] != 0) {
                        sendEndedB.add(c.atB[e] - f.sentAt);
                        endedBminusA.add(c.atB[e] - f.endedAt);
                    }
                }
                for (String p : c.problems) if (problems.size() < 40) problems.add("chat " + c.index + ": " + p);
            }
        }
        if (rawOut != null) rawOut.close();
        double seconds = (measureEnd - measureStart) / 1e9;
        String p = opt("prefix", "relay");
        RESULT.put(p + "_streams", String.valueOf(chats.size()));
        RESULT.put(p + "_content", "\"" + opt("content", "Relay?") + "\"");
        RESULT.put(p + "_warmup_s", opt("warmup", "10"));
        RESULT.put(p + "_rounds", String.valueOf(rounds));
        RESULT.put(p + "_measure_s", String.format("%.1f", seconds));
        long startMicros = wallMicros(measureStart);
        RESULT.put(p + "_measure_start_wall",
                Instant.ofEpochSecond(startMicros / 1_000_000, (startMicros % 1_000_000) * 1000).toString());
        RESULT.put(p + "_frames_measured", String.valueOf(framesMeasured));
        RESULT.put(p + "_frames_per_s", String.format("%.1f", framesMeasured / seconds));
        RESULT.put(p + "_token_events_measured", String.valueOf(tokDiff.size));
        RESULT.put(p + "_tokens_per_s", String.format("%.0f", tokDiff.size / seconds));
        RESULT.put(p + "_events_measured", String.valueOf(eventsMeasured));
        RESULT.put(p + "_events_measured_by_type", byType.toString().replace(' ', '_'));
        long[] tpr = tokensPerReply.sorted();
        RESULT.put(p + "_tokens_per_reply_avg", String.format("%.1f", avg(tpr)));
        RESULT.put(p + "_tokens_per_reply_min_max", tpr.length == 0 ? "none" : tpr[0] + "-" + tpr[tpr.length - 1]);
        putSigned(p + "_token_b_minus_a_ms", tokDiff.sorted(), 1e6);
        putLatency(p + "_token_abs_b_minus_a_ms", tokAbs.sorted(), 1e6);
        putSigned(p + "_event_b_minus_a_ms", allDiff.sorted(), 1e6);
        putLatency(p + "_event_abs_b_minus_a_ms", allAbs.sorted(), 1e6);
        long n = tokDiff.size;
        RESULT.put(p + "_tokens_b_first", String.format("%d (%.1f%%)", tokensBFirst, 100.0 * tokensBFirst / Math.max(1, n)).replace(' ', '_'));
        RESULT.put(p + "_tokens_abs_within_1ms", String.format("%.2f%%", 100.0 * tokensWithin1ms / Math.max(1, n)));
        RESULT.put(p + "_tokens_abs_within_10ms", String.format("%.2f%%", 100.0 * tokensWithin10ms / Math.max(1, n)));
        RESULT.put(p + "_tokens_abs_over_100ms", String.valueOf(tokensOver100ms));
        // even chats: A read by client 1, B by client 2; odd chats the other way round
        RESULT.put(p + "_outliers_over_" + OUTLIER_NS / 1_000_000 + "ms", String.format(
                "even_chats_A_later=%d,even_chats_B_later=%d,odd_chats_A_later=%d,odd_chats_B_later=%d",
                outliers[0][0], outliers[0][1], outliers[1][0], outliers[1][1]));
        putLatency(p + "_token_a_minus_server_ts_ms", lagA.sorted(), 1e3);
        putLatency(p + "_token_b_minus_server_ts_ms", lagB.sorted(), 1e3);
        putLatency(p + "_send_to_received_a_ms", sendReceived.sorted(), 1e6);
        putLatency(p + "_send_to_started_a_ms", sendStarted.sorted(), 1e6);
        putLatency(p + "_send_to_ended_a_ms", sendEndedA.sorted(), 1e6);
        putLatency(p + "_send_to_ended_b_ms", sendEndedB.sorted(), 1e6);
        putSigned(p + "_ended_b_minus_a_ms", endedBminusA.sorted(), 1e6);
        RESULT.put(p + "_missing_on_a", String.valueOf(missingA));
        RESULT.put(p + "_missing_on_b", String.valueOf(missingB));
        RESULT.put(p + "_reply_holes_a", String.valueOf(holesA));
        RESULT.put(p + "_reply_holes_b", String.valueOf(holesB));
        RESULT.put(p + "_repeats_a", String.valueOf(repeatsA));
        RESULT.put(p + "_repeats_b", String.valueOf(repeatsB));
        RESULT.put(p + "_out_of_order_a", String.valueOf(oooA));
        RESULT.put(p + "_out_of_order_b", String.valueOf(oooB));
        RESULT.put(p + "_before_start", String.valueOf(beforeStart));
        RESULT.put(p + "_last_seq_mismatch", String.valueOf(lastSeqMismatch));
        RESULT.put(p + "_unsequenced_events", String.valueOf(unsequenced));
        RESULT.put(p + "_error_events", String.valueOf(errorEvents));
        RESULT.put(p + "_frames_sent_total", String.valueOf(framesSent));
        RESULT.put(p + "_frames_not_ended", String.valueOf(framesNotEnded));
        RESULT.put(p + "_chats_not_settled_after_drain", String.valueOf(unsettled));
        RESULT.put(p + "_sockets_closed_by_server", String.valueOf(closed));
        cpu1.putDelta(cpu0, p);
        RESULT.put(p + "_elapsed_s", secs(System.nanoTime() - start));
        for (int i = 0; i < problems.size(); i++) System.err.println("problem " + i + ": " + problems.get(i));
        RESULT.put(p + "_problems_logged", String.valueOf(problems.size()));
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

    // ------------------------------------------------------------------------------------------------------------
    // figures
    // ------------------------------------------------------------------------------------------------------------
    static void putLatency(String name, long[] sorted, double unit) {
        if (sorted.length == 0) {
            RESULT.put(name, "none");
            return;
        }
        RESULT.put(name, String.format("n=%d,avg=%.3f,p50=%.3f,p90=%.3f,p99=%.3f,p999=%.3f,max=%.3f", sorted.length,
                avg(sorted) / unit, pct(sorted, 50) / unit, pct(sorted, 90) / unit, pct(sorted, 99) / unit,
                pct(sorted, 99.9) / unit, sorted[sorted.length - 1] / unit));
    }

    /** A signed difference: its low tail too. */
    static void putSigned(String name, long[] sorted, double unit) {
        if (sorted.length == 0) {
            RESULT.put(name, "none");
            return;
        }
        RESULT.put(name, String.format("n=%d,min=%.3f,p1=%.3f,p10=%.3f,avg=%.3f,p50=%.3f,p90=%.3f,p99=%.3f,p999=%.3f,max=%.3f",
                sorted.length, sorted[0] / unit, pct(sorted, 1) / unit, pct(sorted, 10) / unit, avg(sorted) / unit,
                pct(sorted, 50) / unit, pct(sorted, 90) / unit, pct(sorted, 99) / unit, pct(sorted, 99.9) / unit,
                sorted[sorted.length - 1] / unit));
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

    /** "seq" is the last field of a sequenced event; strings before it are escaped. */
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
