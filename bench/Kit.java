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
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

/**
 * What the hand-written load clients (WsLoad, ReviewLoad, StormLoad, WebhookLoad, OutageLoad) have in
 * common: key=value options, the hard time limit, "key=value" results, the figures (average, percentiles), the few
 * JSON fields read by hand, one clock to compare with the server's timestamps, and the chats and sockets they open.
 * Shared by the bench clients through the JDK's multi-file source launcher (JDK 22+): {@code java bench/WsLoad.java}
 * finds this file next to WsLoad.java and compiles it too.
 */
final class Kit {

    private Kit() {
    }

    private static final Map<String, String> OPTIONS = new LinkedHashMap<>();
    private static Thread limiter;

    // ------------------------------------------------------------------------------------------------------------
    // options, log, time limit, results
    // ------------------------------------------------------------------------------------------------------------
    /** Reads the key=value options after the mode and returns the mode, the first argument; none: usage, exit 2. */
    static String mode(String[] args, String usage) {
        if (args.length == 0) {
            System.err.println(usage);
            System.exit(2);
        }
        options(args, 1);
        return args[0];
    }

    /** Reads the arguments from {@code first} on as key=value options. */
    static void options(String[] args, int first) {
        for (int i = first; i < args.length; i++) {
            int eq = args[i].indexOf('=');
            if (eq < 0) throw new IllegalArgumentException("not key=value: " + args[i]);
            OPTIONS.put(args[i].substring(0, eq), args[i].substring(eq + 1));
        }
    }

    /** The option's value, else {@code dflt}; an option that is missing and has no default is an error. */
    static String opt(String name, String dflt) {
        String v = OPTIONS.get(name);
        if (v == null && dflt == null) throw new IllegalArgumentException("missing option " + name + "=");
        return v == null ? dflt : v;
    }

    static boolean has(String name) {
        return OPTIONS.containsKey(name);
    }

    static void log(String s) {
        System.err.printf("[%s] %s%n", LocalTime.now().withNano(0), s);
    }

    /** Halts the JVM (exit code 3) after limit=seconds ({@code dflt}), whatever is stuck: every run ends by itself. */
    static void hardLimit(String client, long dflt) {
        long limit = Long.parseLong(opt("limit", String.valueOf(dflt)));
        limiter = Thread.ofPlatform().daemon().start(() -> {
            try {
                Thread.sleep(limit * 1000);
                System.err.println(client + ": hard time limit of " + limit + " s reached; exiting");
                System.out.flush();
                Runtime.getRuntime().halt(3);
            } catch (InterruptedException ignored) {
            }
        });
    }

    /**
     * Prints the results as "key=value" lines, writes them to out=FILE when given, and exits: the HttpClients' threads
     * would keep the JVM up until the hard limit.
     */
    static void printAndExit(Map<String, String> results) throws IOException {
        StringBuilder out = new StringBuilder();
        results.forEach((k, v) -> out.append(k).append('=').append(v).append('\n'));
        System.out.print(out);
        System.out.flush();
        if (has("out")) Files.writeString(Path.of(opt("out", null)), out);
        if (limiter != null) limiter.interrupt();
        System.exit(0);
    }

    // ------------------------------------------------------------------------------------------------------------
    // figures
    // ------------------------------------------------------------------------------------------------------------
    /** A growable long[]: a run's samples without boxing each. */
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

    static double avg(long[] v) {
        if (v.length == 0) return 0;
        double s = 0;
        for (long x : v) s += x;
        return s / v.length;
    }

    /** The p-th percentile (nearest rank) of a sorted, non-empty array. */
    static long pct(long[] sorted, double p) {
        int i = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
    }

    /** "n=..,avg=..,p50=..,p90=..,p99=..,p999=..,max=.." of the sorted values divided by unit, or "none". */
    static String summary(long[] sorted, double unit) {
        if (sorted.length == 0) return "none";
        return String.format("n=%d,avg=%.3f,p50=%.3f,p90=%.3f,p99=%.3f,p999=%.3f,max=%.3f", sorted.length,
                avg(sorted) / unit, pct(sorted, 50) / unit, pct(sorted, 90) / unit, pct(sorted, 99) / unit,
                pct(sorted, 99.9) / unit, sorted[sorted.length - 1] / unit);
    }

    static String secs(long nanos) {
        return String.format("%.2f", nanos / 1e9);
    }

    /** CPU time of the processes named in procs=FILE ("label pid" lines), of this JVM, and of the machine. */
    record Cpu(long nanos, Map<String, Long> ticks, long selfNanos, long machineTicks, String load) {
        static Cpu sample() throws IOException {
            Map<String, Long> ticks = new TreeMap<>();
            String file = OPTIONS.get("procs");
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

        /** Puts the CPU seconds from {@code before} to this sample as "p_cpu_s_..." results. */
        void putDelta(Cpu before, String p, Map<String, String> results) {
            putDelta(before, p, results, Locale.getDefault(Locale.Category.FORMAT), false);
        }

        /** The same, its numbers written for {@code locale}; {@code withWall}: the seconds in between too. */
        void putDelta(Cpu before, String p, Map<String, String> results, Locale locale, boolean withWall) {
            double hz = Double.parseDouble(opt("clk_tck", "100"));
            double accounted = (selfNanos - before.selfNanos) / 1e9;
            for (var e : ticks.entrySet()) {
                double s = (e.getValue() - before.ticks.getOrDefault(e.getKey(), 0L)) / hz;
                accounted += s;
                results.put(p + "_cpu_s_" + e.getKey(), String.format(locale, "%.1f", s));
            }
            double machine = (machineTicks - before.machineTicks) / hz;
            results.put(p + "_cpu_s_client", String.format(locale, "%.1f", (selfNanos - before.selfNanos) / 1e9));
            results.put(p + "_cpu_s_machine", String.format(locale, "%.1f", machine));
            results.put(p + "_cpu_s_other", String.format(locale, "%.1f", Math.max(0, machine - accounted)));
            results.put(p + "_cpu_s_available", String.format(locale, "%.1f",
                    Runtime.getRuntime().availableProcessors() * (nanos - before.nanos) / 1e9));
            if (withWall) results.put(p + "_wall_s", String.format(locale, "%.1f", (nanos - before.nanos) / 1e9));
            results.put(p + "_loadavg_start_end", before.load + "/" + load);
        }
    }

    // ------------------------------------------------------------------------------------------------------------
    // the clock: wall-clock microseconds carried by nanoTime, to compare with the server's timestamps (same machine)
    // ------------------------------------------------------------------------------------------------------------
    private static final long NANO_BASE = System.nanoTime();
    private static final long WALL_BASE_MICROS = micros(Instant.now());

    static long micros(Instant t) {
        return t.getEpochSecond() * 1_000_000L + t.getNano() / 1000;
    }

    static long wallMicros(long nanoTime) {
        return WALL_BASE_MICROS + (nanoTime - NANO_BASE) / 1000;
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

    // ------------------------------------------------------------------------------------------------------------
    // HTTP, chats, sockets
    // ------------------------------------------------------------------------------------------------------------
    static HttpClient httpClient(Executor executor, Duration connectTimeout) {
        return HttpClient.newBuilder()
                .executor(executor)
                .connectTimeout(connectTimeout)
                .version(HttpClient.Version.HTTP_1_1)
                .build();
    }

    /**
     * Creates n chats through POST /api/v1/chats, at most {@code concurrency} at a time, chat i for the user
     * {@code userOf(i)}; returns each one's {chat id, user id}. A chat not created stops the run.
     */
    static String[][] createChats(HttpClient http, String base, String key, int n, int concurrency,
            IntFunction<String> userOf) throws InterruptedException {
        String[][] chats = new String[n][];
        Semaphore inFlight = new Semaphore(concurrency);
        AtomicInteger failed = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(n);
        for (int i = 0; i < n; i++) {
            if (!inFlight.tryAcquire(60, TimeUnit.SECONDS)) throw new IllegalStateException("chat creation stalled");
            int index = i;
            String user = userOf.apply(i);
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

    /** The /ws/chat address {@code ws} for a user's chat, with the tenant's API key. */
    static URI wsUri(String ws, String apiKey, String chatId, String userId) {
        return URI.create(ws + "?api_key=" + URLEncoder.encode(apiKey, StandardCharsets.UTF_8)
                + "&user_id=" + URLEncoder.encode(userId, StandardCharsets.UTF_8) + "&chat_id=" + chatId);
    }

    /**
     * Sends a close on each socket still open for output, then waits (at most {@code waitSeconds}) until every close
     * is sent; returns the sends.
     */
    static List<CompletableFuture<WebSocket>> closeAll(Collection<WebSocket> sockets, String reason, long waitSeconds) {
        List<CompletableFuture<WebSocket>> closing = new ArrayList<>();
        for (WebSocket ws : sockets) {
            if (!ws.isOutputClosed()) closing.add(ws.sendClose(WebSocket.NORMAL_CLOSURE, reason));
        }
        try {
            CompletableFuture.allOf(closing.toArray(CompletableFuture[]::new)).get(waitSeconds, TimeUnit.SECONDS);
        } catch (Exception e) {
            log("closing: " + e);
        }
        return closing;
    }
}
