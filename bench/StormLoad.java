import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Handshake-storm client for /ws/chat (issue 20 (b); see docs/benchmarks.md, "Faults: a handshake storm"). Runs with
 * the JDK's source launcher (JDK 22+: it compiles bench/Kit.java, the helpers the load clients share, as needed), no
 * dependencies:
 *
 * <pre>
 *   java bench/StormLoad.java setup base=http://127.0.0.1:18185 admin=TOKEN tenants=200 chats_per_tenant=50 file=F
 *   java bench/StormLoad.java storm ws=ws://127.0.0.1:18185/ws/chat chats=F n=10000 rate=500 hold=5
 * </pre>
 *
 * setup: creates the tenants (POST /admin/v1/tenants) and their chats (POST /api/v1/chats), writes
 * "api_key chat_id user_id" lines, interleaved by tenant (line i belongs to tenant i % tenants).
 * storm: starts n connects at rate per second, each on a virtual thread, connection i on line i. Each client follows
 * the documented policy: on {@code error} SERVICE_UNAVAILABLE (closed 1013) it waits retry_after_ms ± 50 %, then
 * doubles the wait at each try (at most 30 s), at most {@code tries} (6) tries in all. A try whose first event does
 * not come within {@code event_timeout} seconds is a timeout (aborted, then retried like a turn-away); a try that
 * fails to connect is a failure (retried the same way). Records the outcome of every try, the connect time of the
 * admitted ones (first try's start to connection_established), the admitted ones per second; then holds the
 * established connections {@code hold} seconds (counting those the server closes) and closes them.
 * Results are printed as "key=value" lines (and to out=FILE). Every phase has a deadline (limit=seconds in all).
 *
 * <p>Why not Gatling: the clients follow the interface's retry protocol (retry_after_ms, doubling, six tries) and
 * the figure is how many tries each needed; an injection profile cannot express a reply-driven retry.
 */
public class StormLoad {

    static final Map<String, String> RESULT = new LinkedHashMap<>();

    public static void main(String[] args) throws Exception {
        String mode = Kit.mode(args, "usage: java bench/StormLoad.java setup|storm key=value...");
        Kit.hardLimit("StormLoad", 900);
        switch (mode) {
            case "setup" -> setup();
            case "storm" -> storm();
            default -> throw new IllegalArgumentException("unknown mode " + mode);
        }
        Kit.printAndExit(RESULT);
    }

    static String stringField(String json, String field) {
        Matcher m = Pattern.compile("\"" + field + "\"\\s*:\\s*\"([^\"]*)\"").matcher(json);
        return m.find() ? m.group(1) : null;
    }

    static long longField(String json, String field) {
        Matcher m = Pattern.compile("\"" + field + "\"\\s*:\\s*(\\d+)").matcher(json);
        return m.find() ? Long.parseLong(m.group(1)) : -1;
    }

    static HttpClient client(ExecutorService executor) {
        return Kit.httpClient(executor, Duration.ofSeconds(30));
    }

    // ------------------------------------------------------------------------------------------------------------
    // setup: tenants and their chats
    // ------------------------------------------------------------------------------------------------------------
    static void setup() throws Exception {
        String base = Kit.opt("base", null), admin = Kit.opt("admin", null);
        int tenants = Integer.parseInt(Kit.opt("tenants", "200"));
        int perTenant = Integer.parseInt(Kit.opt("chats_per_tenant", "50"));
        int concurrency = Integer.parseInt(Kit.opt("concurrency", "16"));
        ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
        HttpClient http = client(executor);
        long t0 = System.nanoTime();
        String[] keys = new String[tenants];
        runAll(tenants, concurrency, t -> {
            HttpRequest request = HttpRequest.newBuilder(URI.create(base + "/admin/v1/tenants"))
                    .timeout(Duration.ofSeconds(30))
                    .header("X-Admin-Token", admin)
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"storm tenant " + t + "\"}"))
                    .build();
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            String key = response.statusCode() / 100 == 2 ? stringField(response.body(), "api_key") : null;
            if (key == null) throw new IllegalStateException("tenant " + t + ": " + response.statusCode() + " " + response.body());
            keys[t] = key;
        });
        RESULT.put("setup_tenants", String.valueOf(tenants));
        RESULT.put("setup_tenants_seconds", Kit.secs(System.nanoTime() - t0));
        long t1 = System.nanoTime();
        String[] lines = new String[tenants * perTenant];
        runAll(tenants * perTenant, concurrency, i -> {
            int t = i % tenants, j = i / tenants;
            String user = "s" + t + "-" + j;
            HttpRequest request = HttpRequest.newBuilder(URI.create(base + "/api/v1/chats"))
                    .timeout(Duration.ofSeconds(30))
                    .header("X-API-Key", keys[t])
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"user_id\":\"" + user + "\"}"))
                    .build();
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            String id = response.statusCode() == 201 ? stringField(response.body(), "id") : null;
            if (id == null) throw new IllegalStateException("chat " + i + ": " + response.statusCode() + " " + response.body());
            lines[i] = keys[t] + " " + id + " " + user;
        });
        Files.write(Path.of(Kit.opt("file", null)), Arrays.asList(lines));
        RESULT.put("setup_chats", String.valueOf(lines.length));
        RESULT.put("setup_chats_seconds", Kit.secs(System.nanoTime() - t1));
        executor.shutdownNow();
    }

    interface IndexTask {
        void run(int i) throws Exception;
    }

    static void runAll(int n, int concurrency, IndexTask task) throws Exception {
        Semaphore permits = new Semaphore(concurrency);
        AtomicInteger failed = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(n);
        for (int i = 0; i < n; i++) {
            if (!permits.tryAcquire(60, TimeUnit.SECONDS)) throw new IllegalStateException("setup stalled");
            int index = i;
            Thread.ofVirtual().start(() -> {
                try {
                    task.run(index);
                } catch (Exception e) {
                    if (failed.incrementAndGet() <= 5) Kit.log("setup: " + e);
                } finally {
                    permits.release();
                    done.countDown();
                }
            });
        }
        if (!done.await(300, TimeUnit.SECONDS)) throw new IllegalStateException("setup did not finish");
        if (failed.get() > 0) throw new IllegalStateException(failed.get() + " setup requests failed");
    }

    // ------------------------------------------------------------------------------------------------------------
    // storm
    // ------------------------------------------------------------------------------------------------------------
    /** One try: its first event (or "close:CODE" / "error:CLASS") and its close code. */
    static final class Try implements WebSocket.Listener {
        final StringBuilder text = new StringBuilder();
        final CompletableFuture<String> first = new CompletableFuture<>();
        final CompletableFuture<Integer> closed = new CompletableFuture<>();
        volatile boolean established, abandoned;

        @Override
        public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
            text.append(data);
            if (last) {
                String event = text.toString();
                text.setLength(0);
                first.complete(event);
            }
            ws.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onClose(WebSocket ws, int code, String reason) {
            closed.complete(code);
            first.complete("close:" + code);
            if (code == 1011) closes1011.increment();
            if (established) serverClosedEstablished.increment();
            if (!abandoned) closeCodesEstablished(established, code);
            return null;
        }

        @Override
        public void onError(WebSocket ws, Throwable error) {
            closed.complete(-1);
            first.complete("error:" + error.getClass().getSimpleName());
            if (established) errorsEstablished.increment();
        }
    }

    static final LongAdder serverClosedEstablished = new LongAdder(), errorsEstablished = new LongAdder();
    static final Map<String, LongAdder> closeCodes = new ConcurrentHashMap<>();

    static void closeCodesEstablished(boolean established, int code) {
        closeCodes.computeIfAbsent((established ? "established_" : "try_") + code, k -> new LongAdder()).increment();
    }

    static final int MAX_TRIES = 10;
    static final AtomicIntegerArray triesStarted = new AtomicIntegerArray(MAX_TRIES + 1);
    static final AtomicIntegerArray admittedAt = new AtomicIntegerArray(MAX_TRIES + 1);
    static final AtomicIntegerArray turnedAwayAt = new AtomicIntegerArray(MAX_TRIES + 1);
    static final AtomicIntegerArray timeoutAt = new AtomicIntegerArray(MAX_TRIES + 1);
    static final AtomicIntegerArray failedAt = new AtomicIntegerArray(MAX_TRIES + 1);
    static final AtomicIntegerArray admittedPerSecond = new AtomicIntegerArray(3600);
    static final AtomicIntegerArray turnedAwayPerSecond = new AtomicIntegerArray(3600);
    static final AtomicIntegerArray firstTriesPerSecond = new AtomicIntegerArray(3600);
    static final LongAdder turnedAway1013 = new LongAdder(), turnedAwayOtherClose = new LongAdder();
    static final LongAdder closes1011 = new LongAdder(), otherRefusals = new LongAdder(), gaveUp = new LongAdder();
    static final Map<String, LongAdder> otherEvents = new ConcurrentHashMap<>();
    static final Map<String, LongAdder> failures = new ConcurrentHashMap<>();
    static final Map<Long, LongAdder> retryAfters = new ConcurrentHashMap<>();
    static final AtomicInteger inFlight = new AtomicInteger(), peakInFlight = new AtomicInteger();
    static final AtomicInteger pending = new AtomicInteger(), peakPending = new AtomicInteger();
    static final long[] connectNs = new long[200_000];
    static final int[] admittedTry = new int[200_000];
    static final AtomicLong lastAdmittedNs = new AtomicLong();
    static long t0;

    static void storm() throws Exception {
        List<String[]> lines = new ArrayList<>();
        for (String line : Files.readAllLines(Path.of(Kit.opt("chats", null)))) {
            if (!line.isBlank()) lines.add(line.strip().split(" "));
        }
        String ws = Kit.opt("ws", null);
        int n = Integer.parseInt(Kit.opt("n", "10000"));
        double rate = Double.parseDouble(Kit.opt("rate", "500"));
        int tries = Integer.parseInt(Kit.opt("tries", "6"));
        long eventTimeoutMs = Long.parseLong(Kit.opt("event_timeout", "20")) * 1000;
        long hold = Long.parseLong(Kit.opt("hold", "5"));
        long maxWait = Long.parseLong(Kit.opt("max_wait_ms", "30000"));
        int nClients = Integer.parseInt(Kit.opt("clients", "4"));
        if (tries > MAX_TRIES) throw new IllegalArgumentException("tries <= " + MAX_TRIES);
        ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
        HttpClient[] clients = new HttpClient[nClients];
        for (int i = 0; i < nClients; i++) clients[i] = client(executor);
        List<WebSocket> established = java.util.Collections.synchronizedList(new ArrayList<>());
        CountDownLatch done = new CountDownLatch(n);
        Arrays.fill(connectNs, -1);
        long interval = (long) (1e9 / rate);
        long maxLagNs = 0;
        t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            long target = t0 + i * interval;
            long now;
            while ((now = System.nanoTime()) < target) LockSupport.parkNanos(target - now);
            maxLagNs = Math.max(maxLagNs, now - target);
            int index = i;
            String[] line = lines.get(i % lines.size());
            URI uri = Kit.wsUri(ws, line[0], line[1], line[2]);
            HttpClient http = clients[i % nClients];
            Thread.ofVirtual().start(() -> {
                try {
                    WebSocket socket = connect(index, http, uri, tries, eventTimeoutMs, maxWait);
                    if (socket != null) established.add(socket);
                } catch (Throwable e) {
                    failures.computeIfAbsent("client_" + e.getClass().getSimpleName(), k -> new LongAdder()).increment();
                } finally {
                    done.countDown();
                }
            });
            if ((i + 1) % 1000 == 0) {
                Kit.log("started " + (i + 1) + ", established " + established.size() + ", handshakes in flight "
                        + inFlight.get() + " (peak " + peakInFlight.get() + ")");
            }
        }
        long startedNs = System.nanoTime() - t0;
        // the last client's six tries take at most ~8 s of waits plus the tries themselves
        long finishBy = Long.parseLong(Kit.opt("finish_timeout", "180"));
        while (!done.await(2, TimeUnit.SECONDS)) {
            Kit.log("established " + established.size() + ", clients still trying " + pending.get()
                    + ", handshakes in flight " + inFlight.get());
            if (System.nanoTime() - t0 - startedNs > finishBy * 1_000_000_000L) {
                Kit.log("the clients did not finish within " + finishBy + " s after the last start");
                break;
            }
        }
        long endNs = System.nanoTime() - t0;
        int est = established.size();
        Kit.log("storm over: established " + est + " of " + n + " in " + Kit.secs(endNs) + " s");

        RESULT.put("requested", String.valueOf(n));
        RESULT.put("rate_per_s", String.valueOf((long) rate));
        RESULT.put("tries_allowed", String.valueOf(tries));
        RESULT.put("starts_seconds", Kit.secs(startedNs));
        RESULT.put("start_max_lag_ms", String.format("%.1f", maxLagNs / 1e6));
        RESULT.put("established", String.valueOf(est));
        RESULT.put("not_finished", String.valueOf(done.getCount()));
        RESULT.put("gave_up_after_all_tries", String.valueOf(gaveUp.sum()));
        RESULT.put("other_refusals", String.valueOf(otherRefusals.sum()));
        RESULT.put("other_first_events", otherEvents.toString().replace(", ", ",").replace(" ", "_"));
        RESULT.put("failures", failures.toString().replace(", ", ",").replace(" ", "_"));
        long tryTotal = 0, turnedTotal = 0, timeoutTotal = 0, failedTotal = 0;
        StringBuilder perTry = new StringBuilder();
        for (int t = 1; t <= tries; t++) {
            tryTotal += triesStarted.get(t);
            turnedTotal += turnedAwayAt.get(t);
            timeoutTotal += timeoutAt.get(t);
            failedTotal += failedAt.get(t);
            RESULT.put("try" + t, "started:" + triesStarted.get(t) + ",admitted:" + admittedAt.get(t) + ",turned_away:"
                    + turnedAwayAt.get(t) + ",timeouts:" + timeoutAt.get(t) + ",failed:" + failedAt.get(t));
        }
        RESULT.put("tries_total", String.valueOf(tryTotal));
        RESULT.put("turned_away_total", String.valueOf(turnedTotal));
        RESULT.put("turned_away_closed_1013", String.valueOf(turnedAway1013.sum()));
        RESULT.put("turned_away_other_close", String.valueOf(turnedAwayOtherClose.sum()));
        RESULT.put("closes_1011", String.valueOf(closes1011.sum()));
        RESULT.put("timeouts_total", String.valueOf(timeoutTotal));
        RESULT.put("failed_tries_total", String.valueOf(failedTotal));
        RESULT.put("retry_after_ms_seen", new TreeMap<>(retryAfters).toString().replace(", ", ",").replace(" ", "_"));
        RESULT.put("peak_handshakes_in_flight", String.valueOf(peakInFlight.get()));
        RESULT.put("peak_clients_not_yet_in", String.valueOf(peakPending.get()));
        // connect times of the admitted ones
        long[] all = new long[n];
        long[] firstTry = new long[n];
        long[] retried = new long[n];
        int a = 0, f = 0, r = 0;
        for (int i = 0; i < n; i++) {
            if (connectNs[i] >= 0) {
                all[a++] = connectNs[i];
                if (admittedTry[i] == 1) firstTry[f++] = connectNs[i];
                else retried[r++] = connectNs[i];
            }
        }
        RESULT.put("connect_ms_admitted", millis(Arrays.copyOf(all, a)));
        RESULT.put("connect_ms_first_try", millis(Arrays.copyOf(firstTry, f)));
        RESULT.put("connect_ms_after_retries", millis(Arrays.copyOf(retried, r)));
        double lastAdmitted = lastAdmittedNs.get() / 1e9;
        RESULT.put("last_admitted_at_s", String.format("%.2f", lastAdmitted));
        RESULT.put("admitted_per_s_mean", lastAdmitted > 0 ? String.format("%.0f", est / lastAdmitted) : "n/a");
        int seconds = (int) Math.min(admittedPerSecond.length() - 1, endNs / 1_000_000_000L);
        int peak = 0, peakAt = 0;
        StringBuilder series = new StringBuilder(), turnedSeries = new StringBuilder(), startSeries = new StringBuilder();
        for (int s = 0; s <= seconds; s++) {
            int v = admittedPerSecond.get(s);
            if (v > peak) {
                peak = v;
                peakAt = s;
            }
            series.append(s == 0 ? "" : ",").append(v);
            turnedSeries.append(s == 0 ? "" : ",").append(turnedAwayPerSecond.get(s));
            startSeries.append(s == 0 ? "" : ",").append(firstTriesPerSecond.get(s));
        }
        RESULT.put("admitted_per_s_peak", peak + "@" + peakAt + "s");
        // steady rate while the storm lasted: seconds 1..(starts end) whole seconds
        int steadyEnd = (int) (startedNs / 1_000_000_000L);
        int steadySum = 0;
        for (int s = 1; s < steadyEnd; s++) steadySum += admittedPerSecond.get(s);
        RESULT.put("admitted_per_s_during_starts", steadyEnd > 1 ? String.valueOf(steadySum / (steadyEnd - 1)) : "n/a");
        RESULT.put("admitted_per_second", series.toString());
        RESULT.put("turned_away_per_second", turnedSeries.toString());
        RESULT.put("first_tries_per_second", startSeries.toString());
        Runtime rt = Runtime.getRuntime();
        RESULT.put("client_heap_used_mib", String.valueOf((rt.totalMemory() - rt.freeMemory()) / 1048576));

        // hold, then close
        System.out.println("READY established=" + est);
        System.out.flush();
        long holdEnd = System.nanoTime() + hold * 1_000_000_000L;
        long minOpen = Long.MAX_VALUE;
        while (System.nanoTime() < holdEnd) {
            Thread.sleep(500);
            long open;
            synchronized (established) {
                open = established.stream().filter(s -> !s.isInputClosed()).count();
            }
            minOpen = Math.min(minOpen, open);
        }
        RESULT.put("held_seconds", String.valueOf(hold));
        RESULT.put("min_open_during_hold", String.valueOf(minOpen == Long.MAX_VALUE ? -1 : minOpen));
        RESULT.put("closed_by_server_while_established", String.valueOf(serverClosedEstablished.sum()));
        RESULT.put("errors_while_established", String.valueOf(errorsEstablished.sum()));
        long c0 = System.nanoTime();
        List<CompletableFuture<WebSocket>> closing = Kit.closeAll(List.copyOf(established), "storm bench done", 60);
        int closeFailed = 0;
        for (CompletableFuture<WebSocket> c : closing) if (!c.isDone() || c.isCompletedExceptionally()) closeFailed++;
        // wait for the server's close replies
        long closeDeadline = System.nanoTime() + 30_000_000_000L;
        long stillOpen;
        do {
            Thread.sleep(200);
            synchronized (established) {
                stillOpen = established.stream().filter(s -> !s.isInputClosed()).count();
            }
        } while (stillOpen > 0 && System.nanoTime() < closeDeadline);
        RESULT.put("close_sent", String.valueOf(closing.size()));
        RESULT.put("close_send_failed", String.valueOf(closeFailed));
        RESULT.put("close_not_answered", String.valueOf(stillOpen));
        RESULT.put("close_seconds", Kit.secs(System.nanoTime() - c0));
        RESULT.put("close_codes", new TreeMap<>(closeCodes).toString().replace(", ", ",").replace(" ", "_"));
        synchronized (established) {
            established.forEach(WebSocket::abort);
        }
    }

    static void peak(AtomicInteger gauge, AtomicInteger peak, int delta) {
        int v = gauge.addAndGet(delta);
        peak.accumulateAndGet(v, Math::max);
    }

    static int second() {
        return (int) Math.min(admittedPerSecond.length() - 1, (System.nanoTime() - t0) / 1_000_000_000L);
    }

    /** One client: the documented policy. Returns the established socket, or null. */
    static WebSocket connect(int index, HttpClient http, URI uri, int tries, long eventTimeoutMs, long maxWait)
            throws InterruptedException {
        long start = System.nanoTime();
        firstTriesPerSecond.incrementAndGet(second());
        peak(pending, peakPending, 1);
        long wait = 0;
        try {
            for (int attempt = 1; attempt <= tries; attempt++) {
                triesStarted.incrementAndGet(attempt);
                Try t = new Try();
                peak(inFlight, peakInFlight, 1);
                WebSocket socket = null;
                String first;
                long retryAfter = 250;
                CompletableFuture<WebSocket> opening = http.newWebSocketBuilder()
                        .connectTimeout(Duration.ofSeconds(30))
                        .buildAsync(uri, t);
                try {
                    socket = opening.get(eventTimeoutMs, TimeUnit.MILLISECONDS);
                    first = t.first.get(eventTimeoutMs, TimeUnit.MILLISECONDS);
                } catch (TimeoutException e) {
                    first = "timeout";
                    // a try given up on is closed, also when its upgrade completes later (else it would keep a slot
                    // of the tenant's connection cap on the server)
                    t.abandoned = true;
                    opening.whenComplete((w, error) -> {
                        if (w != null) w.abort();
                    });
                } catch (java.util.concurrent.ExecutionException e) {
                    Throwable cause = e.getCause() == null ? e : e.getCause();
                    first = "error:" + cause.getClass().getSimpleName();
                } finally {
                    inFlight.decrementAndGet();
                }
                String type = first.startsWith("{") ? stringField(first, "event_type") : null;
                if ("connection_established".equals(type)) {
                    t.established = true;
                    long ns = System.nanoTime() - start;
                    connectNs[index] = ns;
                    admittedTry[index] = attempt;
                    admittedAt.incrementAndGet(attempt);
                    admittedPerSecond.incrementAndGet(second());
                    lastAdmittedNs.accumulateAndGet(System.nanoTime() - t0, Math::max);
                    return socket;
                }
                if ("error".equals(type) && "SERVICE_UNAVAILABLE".equals(stringField(first, "error_code"))) {
                    turnedAwayAt.incrementAndGet(attempt);
                    turnedAwayPerSecond.incrementAndGet(second());
                    long ra = longField(first, "retry_after_ms");
                    if (ra > 0) retryAfter = ra;
                    retryAfters.computeIfAbsent(ra, k -> new LongAdder()).increment();
                    int code;
                    try {
                        code = t.closed.get(10, TimeUnit.SECONDS);
                    } catch (Exception e) {
                        code = -2;
                        if (socket != null) socket.abort();
                    }
                    if (code == 1013) turnedAway1013.increment();
                    else turnedAwayOtherClose.increment();
                } else if (type != null) {
                    // another refusal (CONNECTION_LIMIT_EXCEEDED, ...): not retried
                    String code = "error".equals(type) ? stringField(first, "error_code") : type;
                    otherEvents.computeIfAbsent(code, k -> new LongAdder()).increment();
                    otherRefusals.increment();
                    try {
                        t.closed.get(5, TimeUnit.SECONDS);
                    } catch (Exception e) {
                        if (socket != null) socket.abort();
                    }
                    return null;
                } else if (first.startsWith("close:")) {
                    int code = Integer.parseInt(first.substring(6));
                    failures.computeIfAbsent("close_" + code, k -> new LongAdder()).increment();
                    failedAt.incrementAndGet(attempt);
                } else if (first.equals("timeout")) {
                    timeoutAt.incrementAndGet(attempt);
                    if (socket != null) socket.abort();
                } else {
                    failures.computeIfAbsent(first, k -> new LongAdder()).increment();
                    failedAt.incrementAndGet(attempt);
                    if (socket != null) socket.abort();
                }
                if (attempt == tries) break;
                wait = wait == 0 ? retryAfter : Math.min(maxWait, wait * 2);
                Thread.sleep((long) (wait * ThreadLocalRandom.current().nextDouble(0.5, 1.5)));
            }
            gaveUp.increment();
            return null;
        } finally {
            pending.decrementAndGet();
        }
    }

    /** Nanoseconds as "n=..,p50=..,p90=..,p99=..,max=.." in ms; sorts them. */
    static String millis(long[] ns) {
        if (ns.length == 0) return "n=0";
        Arrays.sort(ns);
        return String.format("n=%d,p50=%.1f,p90=%.1f,p99=%.1f,max=%.1f", ns.length, Kit.pct(ns, 50) / 1e6,
                Kit.pct(ns, 90) / 1e6, Kit.pct(ns, 99) / 1e6, ns[ns.length - 1] / 1e6);
    }
}
