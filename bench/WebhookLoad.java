import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Load client of the webhook benchmark (see docs/benchmarks.md, section "Webhooks" and bench/webhooks.sh). Runs with
 * the JDK's source launcher (JDK 22+: it compiles bench/Kit.java, the helpers the load clients share, as needed), no
 * dependencies:
 *
 * <pre>
 *   java bench/WebhookLoad.java events  base=http://127.0.0.1:18190 key=crs_... n=20000 concurrency=8
 *   java bench/WebhookLoad.java uploads base=... keys=crs_a,crs_b homeworks=UUID_A,UUID_B solution=FILE n=300 warmup=50
 * </pre>
 *
 * events: n chats created then deleted (POST /api/v1/chats, DELETE /api/v1/chats/{id}), concurrency workers each doing
 * create then delete; every delete records one chat.deleted event per subscribed endpoint.
 * uploads: sequential homework uploads (one in flight), alternating between the tenants given (keys[i] uploads to
 * homeworks[i]): A, B, A, B...; the first warmup of each are not measured. Latency percentiles per tenant.
 * Results are printed as "key=value" lines. Every run has a deadline (limit=, seconds).
 *
 * <p>Why not a load tool: here the service is the client; this is the receiving end, timing each delivery from
 * the event's creation.
 */
public class WebhookLoad {

    static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    public static void main(String[] args) throws Exception {
        String mode = Kit.mode(args, "usage: java bench/WebhookLoad.java events|uploads key=value...");
        Kit.hardLimit("WebhookLoad", 900);
        switch (mode) {
            case "events" -> events();
            case "uploads" -> uploads();
            default -> throw new IllegalArgumentException("unknown mode " + mode);
        }
        System.exit(0);
    }

    static final Pattern ID = Pattern.compile("\"id\"\\s*:\\s*\"([0-9a-f-]{36})\"");

    static void events() throws Exception {
        String base = Kit.opt("base", null), key = Kit.opt("key", null);
        int n = Integer.parseInt(Kit.opt("n", "20000")), concurrency = Integer.parseInt(Kit.opt("concurrency", "8"));
        AtomicInteger next = new AtomicInteger(), deleted = new AtomicInteger(), errors = new AtomicInteger();
        long start = System.nanoTime();
        List<Thread> workers = new ArrayList<>();
        for (int w = 0; w < concurrency; w++) {
            workers.add(Thread.ofPlatform().start(() -> {
                int i;
                while ((i = next.getAndIncrement()) < n) {
                    try {
                        HttpResponse<String> created = HTTP.send(HttpRequest.newBuilder(URI.create(base + "/api/v1/chats"))
                                .header("X-API-Key", key).header("Content-Type", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofString("{\"user_id\":\"bench-user-" + (i % 500) + "\"}"))
                                .build(), HttpResponse.BodyHandlers.ofString());
                        Matcher m = ID.matcher(created.body());
                        if (created.statusCode() != 201 || !m.find()) {
                            if (errors.getAndIncrement() < 5) System.err.println("create: " + created.statusCode() + " " + created.body());
                            continue;
                        }
                        HttpResponse<String> gone = HTTP.send(HttpRequest.newBuilder(URI.create(base + "/api/v1/chats/" + m.group(1)))
                                .header("X-API-Key", key).DELETE().build(), HttpResponse.BodyHandlers.ofString());
                        if (gone.statusCode() / 100 == 2) {
                            deleted.incrementAndGet();
                        } else if (errors.getAndIncrement() < 5) {
                            System.err.println("delete: " + gone.statusCode() + " " + gone.body());
                        }
                    } catch (Exception e) {
                        if (errors.getAndIncrement() < 5) System.err.println("error: " + e);
                    }
                }
            }));
        }
        for (Thread t : workers) t.join();
        double s = (System.nanoTime() - start) / 1e9;
        System.out.printf(Locale.ROOT, "events_deleted=%d%nevents_errors=%d%nevents_seconds=%.2f%nevents_per_s=%.0f%n",
                deleted.get(), errors.get(), s, deleted.get() / s);
    }

    static void uploads() throws Exception {
        String base = Kit.opt("base", null);
        String[] keys = Kit.opt("keys", null).split(","), homeworks = Kit.opt("homeworks", null).split(",");
        String[] labels = Kit.opt("labels", "a,b").split(",");
        int n = Integer.parseInt(Kit.opt("n", "300")), warmup = Integer.parseInt(Kit.opt("warmup", "50"));
        byte[] solution = Files.readAllBytes(Path.of(Kit.opt("solution", null)));
        List<List<Long>> lat = new ArrayList<>();
        int[] bad = new int[keys.length];
        for (int t = 0; t < keys.length; t++) lat.add(new ArrayList<>());
        for (int i = 0; i < warmup + n; i++) {
            for (int t = 0; t < keys.length; t++) {
                int tt = (i % 2 == 0) ? t : keys.length - 1 - t; // A,B then B,A: neither always goes first
                String boundary = "----benchwh" + i + "x" + tt;
                var out = new java.io.ByteArrayOutputStream(solution.length + 1024);
                String dash = "--" + boundary + "\r\n";
                out.writeBytes((dash + "Content-Disposition: form-data; name=\"studentId\"\r\n\r\nstudent-" + i + "\r\n"
                        + dash + "Content-Disposition: form-data; name=\"files\"; filename=\"gradebook.py\"\r\n"
                        + "Content-Type: text/x-python\r\n\r\n# submission " + i + "\n").getBytes(StandardCharsets.UTF_8));
                out.writeBytes(solution);
                out.writeBytes(("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8));
                HttpRequest req = HttpRequest.newBuilder(URI.create(base + "/v1/homeworks/" + homeworks[tt] + "/submissions"))
                        .timeout(Duration.ofSeconds(60))
                        .header("x-tenant-api-secret", keys[tt])
                        .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                        .POST(HttpRequest.BodyPublishers.ofByteArray(out.toByteArray())).build();
                long s = System.nanoTime();
                HttpResponse<String> r = HTTP.send(req, HttpResponse.BodyHandlers.ofString());
                long us = (System.nanoTime() - s) / 1000;
                if (r.statusCode() != 201) {
                    if (bad[tt]++ < 3) System.err.println("upload " + labels[tt] + ": " + r.statusCode() + " " + r.body());
                    continue;
                }
                if (i >= warmup) lat.get(tt).add(us);
            }
        }
        for (int t = 0; t < keys.length; t++) {
            long[] v = lat.get(t).stream().mapToLong(Long::longValue).sorted().toArray();
            System.out.printf(Locale.ROOT, "%s_n=%d%n%s_errors=%d%n%s_ms=p50=%.1f,p90=%.1f,p99=%.1f,max=%.1f,mean=%.1f%n",
                    labels[t], v.length, labels[t], bad[t], labels[t], percentileMs(v, 50), percentileMs(v, 90), percentileMs(v, 99),
                    v.length == 0 ? 0 : v[v.length - 1] / 1000.0, Arrays.stream(v).average().orElse(0) / 1000.0);
        }
    }

    /** The p-th percentile of sorted microseconds, in ms; 0 when there are none. */
    static double percentileMs(long[] sorted, double p) {
        return sorted.length == 0 ? 0 : Kit.pct(sorted, p) / 1000.0;
    }
}
