import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.ConsumptionProbe;
import io.github.bucket4j.distributed.BucketProxy;
import io.github.bucket4j.distributed.ExpirationAfterWriteStrategy;
import io.github.bucket4j.distributed.proxy.ProxyManager;
import io.github.bucket4j.redis.lettuce.Bucket4jLettuce;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.ByteArrayCodec;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How to spend one request from a per-tenant quota of N requests per minute held in Redis, across nodes: (A) Bucket4j's
 * Lettuce proxy manager (compare-and-swap: GET the bucket state, then a Lua script that writes the new state only if
 * the stored one is still what was read; on a conflict it reads again and retries) against (B) one Lua script per
 * request by EVALSHA (INCR a fixed-window counter, PEXPIRE it on the first request of the window, answer the count
 * and the PTTL). See bench/redis-quota-results.md. Runs with the JDK's source launcher:
 *
 * <pre>
 *   java -cp LETTUCE_BUCKET4J_CLASSPATH bench/RedisQuotaBench.java port=6390 [threads=32] [warmup=3] [duration=10]
 *        [tenants=64] [check=5] [checkLimit=1000]
 * </pre>
 *
 * Two "nodes" in one process: two RedisClients (each with its own event loops), one connection each (shared by all of
 * that node's threads and pipelined, as the service's Redis class does), each driven by {@code threads} virtual threads
 * (the service runs on virtual threads) that spend one request after another, closed loop. Scenarios: every thread on
 * ONE key (one hot tenant), then keys spread over {@code tenants} keys; N is huge, so nothing is refused. After
 * {@code warmup} seconds it measures {@code duration} seconds: decisions, latency of each decision, the deltas of
 * {@code INFO commandstats} (calls per decision of each command, commands run inside scripts included) and of the
 * Redis server's CPU, and this process's CPU (all its threads: Lettuce's event loops, GC and JIT included). Then a
 * correctness check: limit {@code checkLimit} per minute, both nodes' threads on one fresh key for {@code check}
 * seconds; exactly {@code checkLimit} must be allowed. Use a private Redis: it runs FLUSHALL first.
 */
public class RedisQuotaBench {

    static final String SCRIPT = "local n = redis.call('INCR', KEYS[1]) "
            + "if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end "
            + "return {n, redis.call('PTTL', KEYS[1])}";
    static final long HUGE = 1_000_000_000L; // Bucket4j refuses a refill faster than 1 token/ns
    static final long WINDOW_MS = 60_000;

    /** Spends one request of a key's quota for one node: the remaining count when allowed, -1 when refused. */
    interface Strategy {
        long spend(int node, int key);
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** (A) Bucket4j's CAS-based Lettuce proxy manager, one per node, on that node's connection. */
    static Strategy bucket4j(List<StatefulRedisConnection<byte[], byte[]>> nodes, String prefix, int keys, long limit) {
        BucketConfiguration config = BucketConfiguration.builder()
                .addLimit(Bandwidth.builder().capacity(limit).refillIntervally(limit, Duration.ofMinutes(1)).build())
                .build();
        BucketProxy[][] buckets = new BucketProxy[nodes.size()][keys];
        for (int n = 0; n < nodes.size(); n++) {
            ProxyManager<byte[]> proxyManager = Bucket4jLettuce.casBasedBuilder(nodes.get(n))
                    // a tenant's key goes away once its bucket would be full again, as a service's must
                    .expirationAfterWrite(ExpirationAfterWriteStrategy
                            .basedOnTimeForRefillingBucketUpToMax(Duration.ofSeconds(10)))
                    .build();
            for (int k = 0; k < keys; k++) {
                buckets[n][k] = proxyManager.builder().build(bytes(prefix + k), () -> config);
            }
        }
        return (node, key) -> {
            ConsumptionProbe probe = buckets[node][key].tryConsumeAndReturnRemaining(1);
            return probe.isConsumed() ? probe.getRemainingTokens() : -1;
        };
    }

    /** (B) one Lua script per request by EVALSHA, on each node's connection. */
    static Strategy evalsha(List<StatefulRedisConnection<byte[], byte[]>> nodes, String prefix, int keys, long limit) {
        String sha = nodes.get(0).sync().scriptLoad(SCRIPT);
        List<RedisCommands<byte[], byte[]>> commands = nodes.stream().map(StatefulRedisConnection::sync).toList();
        byte[][][] keyArgs = new byte[keys][][];
        for (int k = 0; k < keys; k++) {
            keyArgs[k] = new byte[][] {bytes(prefix + k)};
        }
        byte[] window = bytes(Long.toString(WINDOW_MS));
        return (node, key) -> {
            List<Object> answer = commands.get(node).evalsha(sha, ScriptOutputType.MULTI, keyArgs[key], window);
            long n = (Long) answer.get(0);
            return n <= limit ? limit - n : -1;
        };
    }

    /** One thread's record. */
    static final class Recorder {
        long[] latencies = new long[1 << 16];
        int count;
        long allowed;
        long refused;
        long errors;
        String firstError;

        void add(long nanos, long remaining) {
            if (count == latencies.length) {
                latencies = Arrays.copyOf(latencies, count * 2);
            }
            latencies[count++] = nanos;
            if (remaining >= 0) {
                allowed++;
            } else {
                refused++;
            }
        }
    }

    static volatile boolean measuring;
    static volatile boolean stop;

    record Snapshot(long nanos, long processCpuNanos, double redisCpuSeconds, Map<String, Long> calls) {}

    static Snapshot snapshot(RedisCommands<String, String> admin) {
        Map<String, Long> calls = new TreeMap<>();
        for (String line : admin.info("commandstats").split("\r?\n")) {
            if (line.startsWith("cmdstat_")) {
                String name = line.substring("cmdstat_".length(), line.indexOf(':'));
                int at = line.indexOf("calls=") + "calls=".length();
                calls.put(name, Long.parseLong(line.substring(at, line.indexOf(',', at))));
            }
        }
        double redisCpu = 0;
        for (String line : admin.info("cpu").split("\r?\n")) {
            if (line.startsWith("used_cpu_sys:") || line.startsWith("used_cpu_user:")) {
                redisCpu += Double.parseDouble(line.substring(line.indexOf(':') + 1).trim());
            }
        }
        long cpu = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
        return new Snapshot(System.nanoTime(), cpu, redisCpu, calls);
    }

    static String load() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (Exception e) {
            return "?";
        }
    }

    record Result(String name, long decisions, long allowed, long refused, long errors, double seconds, double p50us,
            double p99us, double p999us, Map<String, Double> callsPerDecision, double roundTrips, double casRetries,
            double clientCpuUs, double redisCpuUs) {}

    /** Runs the threads of both nodes: warm-up, then the measured window. */
    static Result run(String name, Strategy strategy, int nodes, int threads, int keys, double warmup,
            double duration, RedisCommands<String, String> admin) throws Exception {
        System.out.printf("%n== %s: %d nodes x %d virtual threads, %d key(s); load before: %s%n", name, nodes, threads,
                keys, load());
        measuring = false;
        stop = false;
        List<Thread> workers = new ArrayList<>();
        List<Recorder> recorders = new ArrayList<>();
        for (int n = 0; n < nodes; n++) {
            for (int t = 0; t < threads; t++) {
                Recorder recorder = new Recorder();
                recorders.add(recorder);
                int node = n;
                int first = (n * threads + t) % keys; // threads spread over the keys, both nodes on each
                workers.add(Thread.ofVirtual().name(name + "-" + n + "-" + t).start(() -> {
                    int key = first;
                    while (!stop) {
                        long t0 = System.nanoTime();
                        long remaining;
                        try {
                            remaining = strategy.spend(node, key);
                        } catch (RuntimeException e) {
                            recorder.errors++;
                            if (recorder.firstError == null) {
                                recorder.firstError = e.toString();
                            }
                            continue;
                        }
                        long t1 = System.nanoTime();
                        if (measuring) {
                            recorder.add(t1 - t0, remaining);
                        }
                        key = key + 1 == keys ? 0 : key + 1;
                    }
                }));
            }
        }
        Thread.sleep((long) (warmup * 1000));
        Snapshot before = snapshot(admin);
        measuring = true;
        Thread.sleep((long) (duration * 1000));
        measuring = false;
        Snapshot after = snapshot(admin);
        stop = true;
        for (Thread worker : workers) {
            worker.join(10_000);
        }
        long decisions = 0, allowed = 0, refused = 0, errors = 0;
        for (Recorder r : recorders) {
            decisions += r.count;
            allowed += r.allowed;
            refused += r.refused;
            errors += r.errors;
            if (r.firstError != null) {
                System.out.println("error (first of a thread): " + r.firstError);
            }
        }
        long[] all = new long[(int) decisions];
        int at = 0;
        for (Recorder r : recorders) {
            System.arraycopy(r.latencies, 0, all, at, r.count);
            at += r.count;
        }
        Arrays.sort(all);
        double seconds = (after.nanos() - before.nanos()) / 1e9;
        Map<String, Double> perDecision = new LinkedHashMap<>();
        Map<String, Long> delta = new TreeMap<>();
        for (var e : after.calls().entrySet()) {
            long d = e.getValue() - before.calls().getOrDefault(e.getKey(), 0L);
            if (d > 0 && !e.getKey().equals("info")) {
                delta.put(e.getKey(), d);
                perDecision.put(e.getKey(), (double) d / decisions);
            }
        }
        long get = delta.getOrDefault("get", 0L), eval = delta.getOrDefault("eval", 0L);
        long evalsha = delta.getOrDefault("evalsha", 0L);
        long writes = delta.getOrDefault("psetex", 0L) + delta.getOrDefault("set", 0L);
        // Bucket4j: every CAS script runs one GET inside it, so the client's own GETs are get - eval; a CAS that did
        // not write (psetex, or set when the bucket is created) lost to another writer and is retried.
        // round trips: A sends (get - eval) GETs and eval EVALs, i.e. get in all; B sends evalsha EVALSHAs
        double roundTrips = (double) (get + evalsha) / decisions;
        double retries = eval > 0 ? (double) (eval - writes) / decisions : 0;
        Result result = new Result(name, decisions, allowed, refused, errors, seconds, pct(all, 0.50), pct(all, 0.99),
                pct(all, 0.999), perDecision, roundTrips, retries,
                (after.processCpuNanos() - before.processCpuNanos()) / 1e3 / decisions,
                (after.redisCpuSeconds() - before.redisCpuSeconds()) * 1e6 / decisions);
        System.out.printf("decisions=%d (%.0f/s) allowed=%d refused=%d errors=%d%n", decisions, decisions / seconds,
                allowed, refused, errors);
        System.out.printf("latency_us p50=%.0f p99=%.0f p99.9=%.0f max=%.0f%n", result.p50us(), result.p99us(),
                result.p999us(), all.length == 0 ? 0 : all[all.length - 1] / 1e3);
        System.out.printf("commandstats delta=%s%n", delta);
        System.out.printf("calls_per_decision=%s%n", fmt(perDecision));
        System.out.printf("round_trips_per_decision=%.3f cas_retries_per_decision=%.3f%n", roundTrips, retries);
        System.out.printf("client_cpu_us_per_decision=%.1f redis_cpu_us_per_decision=%.1f load after: %s%n",
                result.clientCpuUs(), result.redisCpuUs(), load());
        return result;
    }

    static double pct(long[] sorted, double q) {
        return sorted.length == 0 ? 0 : sorted[Math.min(sorted.length - 1, (int) (q * sorted.length))] / 1e3;
    }

    static String fmt(Map<String, Double> m) {
        StringBuilder b = new StringBuilder();
        m.forEach((k, v) -> b.append(b.isEmpty() ? "" : " ").append(k).append('=').append(String.format("%.3f", v)));
        return b.toString();
    }

    /** Limit {@code limit}/min, every thread of both nodes on one fresh key for {@code seconds}: count the allowed. */
    static String check(String name, Strategy strategy, int nodes, int threads, double seconds) throws Exception {
        System.out.printf("%n== check %s: load before: %s%n", name, load());
        stop = false;
        AtomicLong allowed = new AtomicLong(), refused = new AtomicLong(), errors = new AtomicLong();
        List<Thread> workers = new ArrayList<>();
        long t0 = System.nanoTime();
        for (int n = 0; n < nodes; n++) {
            for (int t = 0; t < threads; t++) {
                int node = n;
                workers.add(Thread.ofVirtual().start(() -> {
                    while (!stop) {
                        try {
                            if (strategy.spend(node, 0) >= 0) {
                                allowed.incrementAndGet();
                            } else {
                                refused.incrementAndGet();
                            }
                        } catch (RuntimeException e) {
                            errors.incrementAndGet();
                        }
                    }
                }));
            }
        }
        Thread.sleep((long) (seconds * 1000));
        stop = true;
        for (Thread worker : workers) {
            worker.join(10_000);
        }
        String line = String.format("check %s: allowed=%d refused=%d errors=%d in %.1f s", name, allowed.get(),
                refused.get(), errors.get(), (System.nanoTime() - t0) / 1e9);
        System.out.println(line);
        return line;
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> opt = new LinkedHashMap<>();
        for (String a : args) {
            opt.put(a.substring(0, a.indexOf('=')), a.substring(a.indexOf('=') + 1));
        }
        int port = Integer.parseInt(opt.getOrDefault("port", "6390"));
        if (port == 6379) {
            throw new IllegalArgumentException("not the shared Redis: this benchmark runs FLUSHALL");
        }
        int threads = Integer.parseInt(opt.getOrDefault("threads", "32"));
        double warmup = Double.parseDouble(opt.getOrDefault("warmup", "3"));
        double duration = Double.parseDouble(opt.getOrDefault("duration", "10"));
        int tenants = Integer.parseInt(opt.getOrDefault("tenants", "64"));
        double checkSeconds = Double.parseDouble(opt.getOrDefault("check", "5"));
        long checkLimit = Long.parseLong(opt.getOrDefault("checkLimit", "1000"));
        int nodes = 2;

        RedisURI uri = RedisURI.create("redis://127.0.0.1:" + port);
        uri.setTimeout(Duration.ofSeconds(5));
        List<RedisClient> clients = new ArrayList<>();
        List<StatefulRedisConnection<byte[], byte[]>> connections = new ArrayList<>();
        for (int n = 0; n < nodes; n++) {
            RedisClient client = RedisClient.create(uri);
            clients.add(client);
            connections.add(client.connect(ByteArrayCodec.INSTANCE));
        }
        StatefulRedisConnection<String, String> adminConnection = clients.get(0).connect();
        RedisCommands<String, String> admin = adminConnection.sync();
        admin.flushall();
        System.out.printf("java=%s redis=%s cores=%d load=%s%n", Runtime.version(),
                admin.info("server").lines().filter(l -> l.startsWith("redis_version:")).findFirst().orElse("?"),
                Runtime.getRuntime().availableProcessors(), load());

        List<Result> results = new ArrayList<>();
        List<String> checks = new ArrayList<>();
        try {
            results.add(run("A bucket4j-cas, 1 key", bucket4j(connections, "q:a1:", 1, HUGE), nodes, threads, 1,
                    warmup, duration, admin));
            results.add(run("B evalsha, 1 key", evalsha(connections, "q:b1:", 1, HUGE), nodes, threads, 1, warmup,
                    duration, admin));
            results.add(run("A bucket4j-cas, " + tenants + " keys",
                    bucket4j(connections, "q:am:", tenants, HUGE), nodes, threads, tenants, warmup, duration, admin));
            results.add(run("B evalsha, " + tenants + " keys", evalsha(connections, "q:bm:", tenants, HUGE), nodes,
                    threads, tenants, warmup, duration, admin));
            if (checkSeconds > 0) {
                checks.add(check("A bucket4j-cas limit=" + checkLimit + "/min",
                        bucket4j(connections, "q:ac:", 1, checkLimit), nodes, threads, checkSeconds));
                checks.add(check("B evalsha limit=" + checkLimit + "/min",
                        evalsha(connections, "q:bc:", 1, checkLimit), nodes, threads, checkSeconds));
                System.out.println("B's counter after the check: " + admin.get("q:bc:0") + ", pttl "
                        + admin.pttl("q:bc:0") + " ms");
            }
        } finally {
            adminConnection.close();
            for (StatefulRedisConnection<byte[], byte[]> c : connections) {
                c.close();
            }
            for (RedisClient c : clients) {
                c.shutdown();
            }
        }

        System.out.println();
        System.out.println("| run | decisions/s | p50 µs | p99 µs | client round trips/decision | "
                + "Redis calls/decision (commandstats) | CAS retries/decision | client CPU µs/decision | "
                + "redis-server CPU µs/decision | errors |");
        System.out.println("|---|---:|---:|---:|---:|---|---:|---:|---:|---:|");
        for (Result r : results) {
            System.out.printf("| %s | %.0f | %.0f | %.0f | %.2f | %s | %.2f | %.1f | %.1f | %d |%n", r.name(),
                    r.decisions() / r.seconds(), r.p50us(), r.p99us(), r.roundTrips(), fmt(r.callsPerDecision()),
                    r.casRetries(), r.clientCpuUs(), r.redisCpuUs(), r.errors());
        }
        checks.forEach(System.out::println);
    }
}
