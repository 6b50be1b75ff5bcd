import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.net.http.HttpClient;
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
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPOutputStream;

/**
 * Load client of the token relay across two nodes (bench/relay.sh; see docs/cluster.md). Runs with the JDK's source
 * launcher (JDK 22+: it compiles bench/Kit.java, the helpers the load clients share, as needed), no dependencies:
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
 *
 * <p>Why not a load tool: the figure is the same event's arrival at two sockets on two nodes, compared in one
 * process and on one clock; load tools report each connection's own timings.
 */
public class RelayLoad {

    static final Map<String, String> RESULT = new LinkedHashMap<>();

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
        Kit.options(args, 0);
        Kit.hardLimit("RelayLoad", 900);
        try {
            run();
        } catch (Exception | Error e) {
            e.printStackTrace();
            System.err.flush();
            System.exit(1);   // the HttpClients' threads would keep the JVM up until the hard limit
        }
        Kit.printAndExit(RESULT);
    }

    /** An HttpClient on daemon threads of its own (run() says why there are two). */
    static HttpClient client(int threads) {
        return Kit.httpClient(Executors.newFixedThreadPool(threads, Thread.ofPlatform().daemon().factory()),
                Duration.ofSeconds(10));
    }

    // ------------------------------------------------------------------------------------------------------------
    // one chat: its two sockets and what each received, by seq
    // ------------------------------------------------------------------------------------------------------------
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
            String type = Kit.stringField(event, "event_type");
            if ("connection_established".equals(type)) {
                lastSeq = Kit.longField(event, "last_seq");
                established = true;
                ready.countDown();
                return;
            }
            long seq = Kit.seqOf(event);
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
                String ts = Kit.stringField(event, "timestamp");
                if (ts != null) {
                    micros = Kit.micros(Instant.parse(ts));
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
        String baseA = Kit.opt("base_a", null), baseB = Kit.opt("base_b", null), key = Kit.opt("key", null);
        String wsA = Kit.opt("ws_a", baseA.replaceFirst("^http", "ws") + "/ws/chat");
        String wsB = Kit.opt("ws_b", baseB.replaceFirst("^http", "ws") + "/ws/chat");
        int streams = Integer.parseInt(Kit.opt("streams", "100"));
        long warmup = Long.parseLong(Kit.opt("warmup", "10"));
        long duration = Long.parseLong(Kit.opt("duration", "60"));
        rounds = Integer.parseInt(Kit.opt("rounds", "0"));
        long maxMeasure = Long.parseLong(Kit.opt("max_measure", "600"));
        long drain = Long.parseLong(Kit.opt("drain", "30"));
        int threads = Integer.parseInt(Kit.opt("threads", "2"));
        String content = Kit.opt("content", "Relay?");
        String frameText = "{\"content\":\"" + content.replace("\\", "\\\\").replace("\"", "\\\"") + "\"}";
        roundsDone = new CountDownLatch(rounds > 0 ? streams : 0);

        // Two HttpClients (each a selector thread and an executor), crossed: an even chat's A socket and an odd chat's B
        // socket are read by the first, the others by the second. A stall of one client thread then delays A on half
        // of the chats and B on the other half (B - A of both signs at once, split by the chat's parity), while a stall
        // of a node delays that node's side on every chat: the outliers by parity below tell the two apart.
        HttpClient http1 = client(threads), http2 = client(threads);
        long t0 = System.nanoTime();
        String run = Long.toString(System.currentTimeMillis(), 36);
        String[][] ids = Kit.createChats(http1, baseA, key, streams, 16, i -> "relay-" + run + "-" + i);
        Kit.log(streams + " chats created on node A in " + Kit.secs(System.nanoTime() - t0) + " s");
        if (Kit.has("chats")) {
            List<String> lines = new ArrayList<>();
            for (String[] c : ids) lines.add(c[0] + " " + c[1]);
            Files.write(Path.of(Kit.opt("chats", null)), lines);
        }

        List<Chat> chats = new ArrayList<>();
        t0 = System.nanoTime();
        for (int i = 0; i < streams; i++) {
            Chat c = new Chat(i, ids[i], frameText);
            chats.add(c);
            try {
                HttpClient forA = i % 2 == 0 ? http1 : http2, forB = i % 2 == 0 ? http2 : http1;
                c.b.ws = forB.newWebSocketBuilder().connectTimeout(Duration.ofSeconds(30))
                        .buildAsync(Kit.wsUri(wsB, key, c.chat[0], c.chat[1]), c.b).get(60, TimeUnit.SECONDS);
                c.a.ws = forA.newWebSocketBuilder().connectTimeout(Duration.ofSeconds(30))
                        .buildAsync(Kit.wsUri(wsA, key, c.chat[0], c.chat[1]), c.a).get(60, TimeUnit.SECONDS);
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
        Kit.log(2 * streams + " sockets established (" + streams + " on A, " + streams + " on B) in "
                + Kit.secs(System.nanoTime() - t0) + " s; warming up " + warmup + " s");

        long start = System.nanoTime();
        for (Chat c : chats) {
            synchronized (c) {
                c.sendNext();
            }
        }
        Thread.sleep(warmup * 1000);
        Kit.Cpu cpu0 = Kit.Cpu.sample();
        measureStart = System.nanoTime();
        phase = Phase.MEASURE;
        long measureEnd;
        if (rounds > 0) {
            Kit.log("measuring " + rounds + " frames per chat (at most " + maxMeasure + " s)");
            if (!roundsDone.await(maxMeasure, TimeUnit.SECONDS)) {
                Kit.log("not every chat sent its " + rounds + " frames within " + maxMeasure + " s; " + roundsDone.getCount() + " did not");
            }
            measureEnd = System.nanoTime();
            phase = Phase.STOP;
        } else {
            Kit.log("measuring " + duration + " s");
            Thread.sleep(duration * 1000);
            phase = Phase.STOP;
            measureEnd = System.nanoTime();
        }
        Kit.Cpu cpu1 = Kit.Cpu.sample();
        Kit.log("measure over after " + Kit.secs(measureEnd - measureStart) + " s; draining (at most " + drain + " s)");
        long drainEnd = System.nanoTime() + drain * 1_000_000_000L;
        int unsettled;
        do {
            Thread.sleep(100);
            unsettled = 0;
            for (Chat c : chats) if (!c.settled()) unsettled++;
        } while (unsettled > 0 && System.nanoTime() < drainEnd);
        Thread.sleep(500);   // a late repeat or stray event would still be counted
        Kit.log("drained; " + unsettled + " chats not settled");

        analyse(chats, measureEnd, cpu0, cpu1, unsettled, lastSeqMismatch, start);

        List<WebSocket> sockets = new ArrayList<>();
        for (Chat c : chats) {
            for (Side s : List.of(c.a, c.b)) {
                if (s.ws != null) sockets.add(s.ws);
            }
        }
        Kit.closeAll(sockets, "bench done", 20);
        for (Chat c : chats) {
            if (c.a.ws != null) c.a.ws.abort();
            if (c.b.ws != null) c.b.ws.abort();
        }
    }

    static void analyse(List<Chat> chats, long measureEnd, Kit.Cpu cpu0, Kit.Cpu cpu1, int unsettled, long lastSeqMismatch,
            long start) throws IOException {
        Kit.LongList tokDiff = new Kit.LongList(), tokAbs = new Kit.LongList();
        Kit.LongList allDiff = new Kit.LongList(), allAbs = new Kit.LongList();
        Kit.LongList lagA = new Kit.LongList(), lagB = new Kit.LongList();
        Kit.LongList sendReceived = new Kit.LongList(), sendStarted = new Kit.LongList(), sendEndedA = new Kit.LongList();
        Kit.LongList sendEndedB = new Kit.LongList(), endedBminusA = new Kit.LongList(), tokensPerReply = new Kit.LongList();
        long missingA = 0, missingB = 0, holesA = 0, holesB = 0, repeatsA = 0, repeatsB = 0, oooA = 0, oooB = 0, beforeStart = 0;
        long unsequenced = 0, errorEvents = 0, closed = 0, framesMeasured = 0, framesNotEnded = 0, framesSent = 0;
        long[][] outliers = new long[2][2];   // [chat parity][0: A later, 1: B later]
        long tokensBFirst = 0, tokensWithin1ms = 0, tokensWithin10ms = 0, tokensOver100ms = 0;
        long eventsMeasured = 0;
        Map<String, Long> byType = new TreeMap<>();
        List<String> problems = new ArrayList<>();
        BufferedWriter rawOut = !Kit.has("raw") ? null : new BufferedWriter(new OutputStreamWriter(
                new GZIPOutputStream(Files.newOutputStream(Path.of(Kit.opt("raw", null))), 1 << 16), StandardCharsets.UTF_8),
                1 << 16);
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
                            lagA.add(Kit.wallMicros(c.atA[i]) - c.serverMicros[i]);
                            lagB.add(Kit.wallMicros(c.atB[i]) - c.serverMicros[i]);
                        }
                    }
                    if (rawOut != null) {
                        long ts = c.serverMicros[i] == 0 ? -1 : c.serverMicros[i] - Kit.wallMicros(measureStart);
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
        String p = Kit.opt("prefix", "relay");
        RESULT.put(p + "_streams", String.valueOf(chats.size()));
        RESULT.put(p + "_content", "\"" + Kit.opt("content", "Relay?") + "\"");
        RESULT.put(p + "_warmup_s", Kit.opt("warmup", "10"));
        RESULT.put(p + "_rounds", String.valueOf(rounds));
        RESULT.put(p + "_measure_s", String.format("%.1f", seconds));
        long startMicros = Kit.wallMicros(measureStart);
        RESULT.put(p + "_measure_start_wall",
                Instant.ofEpochSecond(startMicros / 1_000_000, (startMicros % 1_000_000) * 1000).toString());
        RESULT.put(p + "_frames_measured", String.valueOf(framesMeasured));
        RESULT.put(p + "_frames_per_s", String.format("%.1f", framesMeasured / seconds));
        RESULT.put(p + "_token_events_measured", String.valueOf(tokDiff.size));
        RESULT.put(p + "_tokens_per_s", String.format("%.0f", tokDiff.size / seconds));
        RESULT.put(p + "_events_measured", String.valueOf(eventsMeasured));
        RESULT.put(p + "_events_measured_by_type", byType.toString().replace(' ', '_'));
        long[] tpr = tokensPerReply.sorted();
        RESULT.put(p + "_tokens_per_reply_avg", String.format("%.1f", Kit.avg(tpr)));
        RESULT.put(p + "_tokens_per_reply_min_max", tpr.length == 0 ? "none" : tpr[0] + "-" + tpr[tpr.length - 1]);
        RESULT.put(p + "_token_b_minus_a_ms", signedSummary(tokDiff.sorted(), 1e6));
        RESULT.put(p + "_token_abs_b_minus_a_ms", Kit.summary(tokAbs.sorted(), 1e6));
        RESULT.put(p + "_event_b_minus_a_ms", signedSummary(allDiff.sorted(), 1e6));
        RESULT.put(p + "_event_abs_b_minus_a_ms", Kit.summary(allAbs.sorted(), 1e6));
        long n = tokDiff.size;
        RESULT.put(p + "_tokens_b_first", String.format("%d (%.1f%%)", tokensBFirst, 100.0 * tokensBFirst / Math.max(1, n)).replace(' ', '_'));
        RESULT.put(p + "_tokens_abs_within_1ms", String.format("%.2f%%", 100.0 * tokensWithin1ms / Math.max(1, n)));
        RESULT.put(p + "_tokens_abs_within_10ms", String.format("%.2f%%", 100.0 * tokensWithin10ms / Math.max(1, n)));
        RESULT.put(p + "_tokens_abs_over_100ms", String.valueOf(tokensOver100ms));
        // even chats: A read by client 1, B by client 2; odd chats the other way round
        RESULT.put(p + "_outliers_over_" + OUTLIER_NS / 1_000_000 + "ms", String.format(
                "even_chats_A_later=%d,even_chats_B_later=%d,odd_chats_A_later=%d,odd_chats_B_later=%d",
                outliers[0][0], outliers[0][1], outliers[1][0], outliers[1][1]));
        RESULT.put(p + "_token_a_minus_server_ts_ms", Kit.summary(lagA.sorted(), 1e3));
        RESULT.put(p + "_token_b_minus_server_ts_ms", Kit.summary(lagB.sorted(), 1e3));
        RESULT.put(p + "_send_to_received_a_ms", Kit.summary(sendReceived.sorted(), 1e6));
        RESULT.put(p + "_send_to_started_a_ms", Kit.summary(sendStarted.sorted(), 1e6));
        RESULT.put(p + "_send_to_ended_a_ms", Kit.summary(sendEndedA.sorted(), 1e6));
        RESULT.put(p + "_send_to_ended_b_ms", Kit.summary(sendEndedB.sorted(), 1e6));
        RESULT.put(p + "_ended_b_minus_a_ms", signedSummary(endedBminusA.sorted(), 1e6));
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
        cpu1.putDelta(cpu0, p, RESULT);
        RESULT.put(p + "_elapsed_s", Kit.secs(System.nanoTime() - start));
        for (int i = 0; i < problems.size(); i++) System.err.println("problem " + i + ": " + problems.get(i));
        RESULT.put(p + "_problems_logged", String.valueOf(problems.size()));
    }

    // ------------------------------------------------------------------------------------------------------------
    // figures
    // ------------------------------------------------------------------------------------------------------------
    /** Kit.summary of a signed difference: its low tail too. */
    static String signedSummary(long[] sorted, double unit) {
        if (sorted.length == 0) return "none";
        return String.format("n=%d,min=%.3f,p1=%.3f,p10=%.3f,avg=%.3f,p50=%.3f,p90=%.3f,p99=%.3f,p999=%.3f,max=%.3f",
                sorted.length, sorted[0] / unit, Kit.pct(sorted, 1) / unit, Kit.pct(sorted, 10) / unit,
                Kit.avg(sorted) / unit, Kit.pct(sorted, 50) / unit, Kit.pct(sorted, 90) / unit, Kit.pct(sorted, 99) / unit,
                Kit.pct(sorted, 99.9) / unit, sorted[sorted.length - 1] / unit);
    }
}
