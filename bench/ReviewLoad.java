import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Load client of the homework review (see docs/benchmarks.md, section "Homework review"). Runs with the JDK's source
 * launcher (JDK 22+: it compiles bench/Kit.java, the helpers the load clients share, as needed), no dependencies:
 *
 * <pre>
 *   java bench/ReviewLoad.java gen        solution=bench/review-solution.py dir=sample n=12
 *   java bench/ReviewLoad.java throughput base=http://127.0.0.1:18184 key=crs_... homework=UUID solution=... n=200
 *   java bench/ReviewLoad.java latency    base=... key=... homework=... solution=... clients=20 duration=30
 * </pre>
 *
 * gen: writes n generated submissions to dir/NNN-kind/ to look at.
 * throughput: uploads n submissions (concurrency at a time, as fast as they go), then polls the homework's submission
 * list until every one's review is done or failed (or timeout seconds pass); reviews per minute from the client's
 * first upload and from the server's own createdAt and reviewedAt.
 * latency: clients uploaders in a closed loop; uploads started in the window [warmup, warmup + duration) are measured.
 *
 * Submissions are generated from the reference solution, deterministically (seed, index): files of exactly
 * file_kb KiB each, near copies, partial solutions, rewrites, ones that break the restrictions, unrelated prose.
 * Every phase has a deadline (limit=, seconds): the program always ends by itself. Results are printed as "key=value"
 * lines (and to out=FILE when given).
 *
 * <p>Why not a load tool: a review is an asynchronous job; the figure is upload to review, followed per submission
 * after the upload has been answered, which request/response tools do not measure.
 */
public class ReviewLoad {

    static final Map<String, String> RESULT = new LinkedHashMap<>();

    public static void main(String[] args) throws Exception {
        String mode = Kit.mode(args, "usage: java bench/ReviewLoad.java gen|throughput|latency key=value...");
        Kit.hardLimit("ReviewLoad", 1800);
        switch (mode) {
            case "gen" -> gen();
            case "throughput" -> throughput();
            case "latency" -> latency();
            default -> throw new IllegalArgumentException("unknown mode " + mode);
        }
        Kit.printAndExit(RESULT);
    }

    static int intOpt(String key, int dflt) {
        return Integer.parseInt(Kit.opt(key, String.valueOf(dflt)));
    }

    // ============================================================================================================
    // Uploading
    // ============================================================================================================

    static final HttpClient HTTP = HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(10))
            .version(HttpClient.Version.HTTP_1_1)
            .build();

    /** One upload's outcome: when it started and ended (nanoTime), its status, and the submission's id. */
    record Upload(int index, String kind, long startNs, long endNs, int status, String id, String createdAt, String problem) {}

    static HttpRequest uploadRequest(Submission submission, String studentId) {
        String boundary = "----bench" + Long.toHexString(submission.index * 2654435761L + 7);
        byte[] body = submission.multipart(boundary, studentId);
        return HttpRequest.newBuilder(URI.create(Kit.opt("base", null) + "/v1/homeworks/" + Kit.opt("homework", null) + "/submissions"))
                .timeout(Duration.ofSeconds(Long.parseLong(Kit.opt("request_timeout", "120"))))
                .header("x-tenant-api-secret", Kit.opt("key", null))
                .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                .build();
    }

    static Upload upload(Submission submission, String studentId) {
        HttpRequest request = uploadRequest(submission, studentId);
        long start = System.nanoTime();
        try {
            HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
            long end = System.nanoTime();
            if (response.statusCode() == 201) {
                Map<?, ?> json = (Map<?, ?>) Json.parse(response.body());
                return new Upload(submission.index, submission.kind, start, end, 201, (String) json.get("id"),
                        (String) json.get("createdAt"), null);
            }
            String body = response.body();
            return new Upload(submission.index, submission.kind, start, end, response.statusCode(), null, null,
                    body.length() > 300 ? body.substring(0, 300) : body);
        } catch (Exception e) {
            return new Upload(submission.index, submission.kind, start, System.nanoTime(), -1, null, null, e.toString());
        }
    }

    static String solution() throws IOException {
        return Files.readString(Path.of(Kit.opt("solution", null)));
    }

    static void gen() throws Exception {
        String solution = solution();
        Path dir = Path.of(Kit.opt("dir", null));
        long seed = Long.parseLong(Kit.opt("seed", "42"));
        int n = intOpt("n", 12);
        Map<String, Integer> kinds = new TreeMap<>();
        for (int i = 0; i < n; i++) {
            Submission s = Submission.generate(solution, seed, i);
            kinds.merge(s.kind, 1, Integer::sum);
            Path d = dir.resolve(String.format("%03d-%s", i, s.kind));
            Files.createDirectories(d);
            for (GenFile f : s.files) Files.write(d.resolve(f.name), f.bytes);
        }
        RESULT.put("gen_submissions", String.valueOf(n));
        RESULT.put("gen_kinds", kinds.toString().replace(' ', '_'));
    }

    // ============================================================================================================
    // throughput: n uploads, then poll until every review is done or failed
    // ============================================================================================================
    static void throughput() throws Exception {
        String solution = solution();
        long seed = Long.parseLong(Kit.opt("seed", "42"));
        int n = intOpt("n", 200);
        int concurrency = intOpt("concurrency", 20);
        double pollInterval = Double.parseDouble(Kit.opt("poll_interval", "1"));
        long timeout = Long.parseLong(Kit.opt("timeout", "1200"));
        int first = intOpt("first_index", 0);
        String p = Kit.opt("prefix", "tp");
        Kit.log("generating " + n + " submissions");
        List<Submission> submissions = new ArrayList<>();
        for (int i = 0; i < n; i++) submissions.add(Submission.generate(solution, seed, first + i));
        long bytes = submissions.stream().mapToLong(Submission::bytes).sum();

        Kit.Cpu cpu0 = Kit.Cpu.sample();
        Instant firstStart = Instant.now();
        long t0 = System.nanoTime();
        Upload[] uploads = new Upload[n];
        AtomicInteger next = new AtomicInteger();
        List<Thread> threads = new ArrayList<>();
        for (int c = 0; c < concurrency; c++) {
            threads.add(Thread.ofVirtual().start(() -> {
                for (int i; (i = next.getAndIncrement()) < n; ) {
                    uploads[i] = upload(submissions.get(i), "student-" + (first + i));
                }
            }));
        }
        for (Thread t : threads) t.join();
        long uploadEnd = System.nanoTime();
        Instant uploadsDone = Instant.now();
        Kit.LongList latencies = new Kit.LongList();
        Map<String, String> kindOf = new HashMap<>();
        Map<String, Integer> failedUploads = new TreeMap<>();
        for (Upload u : uploads) {
            if (u.status == 201) {
                latencies.add(u.endNs - u.startNs);
                kindOf.put(u.id, u.kind);
            } else {
                failedUploads.merge(String.valueOf(u.status), 1, Integer::sum);
                if (failedUploads.values().stream().mapToInt(Integer::intValue).sum() <= 5) Kit.log("upload failed: " + u.status + " " + u.problem);
            }
        }
        Kit.log(kindOf.size() + " of " + n + " uploaded in " + secs(uploadEnd - t0) + " s; polling every " + pollInterval + " s");

        // poll the list until none of ours is pending
        Map<String, Map<?, ?>> latest = new HashMap<>();
        long deadline = System.nanoTime() + timeout * 1_000_000_000L;
        int polls = 0;
        long pending;
        Kit.Cpu cpu1;
        Instant allFinishedSeen = null;
        while (true) {
            latest.putAll(listAll());
            polls++;
            cpu1 = Kit.Cpu.sample();
            pending = kindOf.keySet().stream()
                    .filter(id -> !latest.containsKey(id) || "pending".equals(review(latest.get(id)).get("state")))
                    .count();
            if (pending == 0) {
                allFinishedSeen = Instant.now();
                break;
            }
            if (polls % Math.max(1, (int) (10 / pollInterval)) == 0) Kit.log(pending + " reviews pending");
            if (System.nanoTime() > deadline) {
                Kit.log("timeout: " + pending + " reviews still pending after " + timeout + " s");
                break;
            }
            Thread.sleep((long) (pollInterval * 1000));
        }

        // the outcome, from the server's own timestamps
        Map<String, Integer> grades = new TreeMap<>(), errors = new TreeMap<>(), statuses = new TreeMap<>();
        Map<String, Map<String, Integer>> gradesByKind = new TreeMap<>();
        Kit.LongList reviewLatencyMs = new Kit.LongList();
        Instant firstCreated = null, lastReviewed = null, lastFailed = null;
        int done = 0, failed = 0, attempts = 0;
        StringBuilder csv = new StringBuilder("index,id,kind,created_at,state,reviewed_at,updated_at,grade,status,failed_attempts,error\n");
        for (Upload u : uploads) {
            if (u.status != 201) continue;
            Map<?, ?> s = latest.get(u.id);
            if (s == null) continue;
            Map<?, ?> r = review(s);
            String state = (String) r.get("state");
            Instant created = Instant.parse((String) s.get("createdAt"));
            if (firstCreated == null || created.isBefore(firstCreated)) firstCreated = created;
            attempts += ((Number) r.get("failedAttempts")).intValue();
            statuses.merge((String) s.get("status"), 1, Integer::sum);
            if ("done".equals(state)) {
                done++;
                Instant reviewed = Instant.parse((String) r.get("reviewedAt"));
                if (lastReviewed == null || reviewed.isAfter(lastReviewed)) lastReviewed = reviewed;
                reviewLatencyMs.add(Duration.between(created, reviewed).toMillis());
                String grade = (String) s.get("grade");
                grades.merge(grade, 1, Integer::sum);
                gradesByKind.computeIfAbsent(u.kind, k -> new TreeMap<>()).merge(grade, 1, Integer::sum);
            } else if ("failed".equals(state)) {
                failed++;
                Instant updated = Instant.parse((String) s.get("updatedAt"));
                if (lastFailed == null || updated.isAfter(lastFailed)) lastFailed = updated;
            }
            if (r.get("error") != null) errors.merge(String.valueOf(r.get("error")), 1, Integer::sum);
            csv.append(u.index).append(',').append(u.id).append(',').append(u.kind).append(',').append(s.get("createdAt"))
                    .append(',').append(state).append(',').append(r.get("reviewedAt")).append(',').append(s.get("updatedAt"))
                    .append(',').append(s.get("grade")).append(',').append(s.get("status")).append(',')
                    .append(r.get("failedAttempts")).append(',')
                    .append(r.get("error") == null ? "" : "\"" + String.valueOf(r.get("error")).replace("\"", "'") + "\"")
                    .append('\n');
        }
        if (Kit.has("csv")) Files.writeString(Path.of(Kit.opt("csv", null)), csv);

        RESULT.put(p + "_n", String.valueOf(n));
        RESULT.put(p + "_files_per_submission", String.valueOf(submissions.getFirst().files.size()));
        RESULT.put(p + "_bytes_per_submission", String.valueOf(bytes / n));
        RESULT.put(p + "_kinds", kinds(submissions));
        RESULT.put(p + "_upload_concurrency", String.valueOf(concurrency));
        RESULT.put(p + "_uploaded", String.valueOf(kindOf.size()));
        RESULT.put(p + "_upload_failures", failedUploads.toString().replace(' ', '_'));
        RESULT.put(p + "_upload_seconds", secs(uploadEnd - t0));
        RESULT.put(p + "_uploads_per_s", String.format(Locale.ROOT, "%.1f", kindOf.size() / ((uploadEnd - t0) / 1e9)));
        RESULT.put(p + "_upload_ms", roundedSummary(latencies.sorted(), 1e6));
        RESULT.put(p + "_first_upload_start", firstStart.toString());
        RESULT.put(p + "_uploads_done", uploadsDone.toString());
        RESULT.put(p + "_first_created_at", String.valueOf(firstCreated));
        RESULT.put(p + "_last_reviewed_at", String.valueOf(lastReviewed));
        RESULT.put(p + "_last_failed_at", String.valueOf(lastFailed));
        RESULT.put(p + "_all_finished_seen_at", String.valueOf(allFinishedSeen));
        RESULT.put(p + "_polls", String.valueOf(polls));
        RESULT.put(p + "_done", String.valueOf(done));
        RESULT.put(p + "_failed", String.valueOf(failed));
        RESULT.put(p + "_pending_at_end", String.valueOf(pending));
        RESULT.put(p + "_failed_attempts_total", String.valueOf(attempts));
        RESULT.put(p + "_errors", errors.isEmpty() ? "none" : errors.toString().replace(' ', '_'));
        RESULT.put(p + "_statuses", statuses.toString().replace(' ', '_'));
        RESULT.put(p + "_grades", grades.toString().replace(' ', '_'));
        RESULT.put(p + "_grades_by_kind", gradesByKind.toString().replace(' ', '_'));
        if (lastReviewed != null) {
            double clientSeconds = Duration.between(firstStart, lastReviewed).toMillis() / 1000.0;
            double serverSeconds = Duration.between(firstCreated, lastReviewed).toMillis() / 1000.0;
            RESULT.put(p + "_seconds_first_upload_to_last_review", String.format(Locale.ROOT, "%.1f", clientSeconds));
            RESULT.put(p + "_reviews_per_min", String.format(Locale.ROOT, "%.1f", done * 60 / clientSeconds));
            RESULT.put(p + "_seconds_first_created_to_last_review", String.format(Locale.ROOT, "%.1f", serverSeconds));
            RESULT.put(p + "_reviews_per_min_server", String.format(Locale.ROOT, "%.1f", done * 60 / serverSeconds));
            double afterUploads = Duration.between(uploadsDone, lastReviewed).toMillis() / 1000.0;
            RESULT.put(p + "_seconds_uploads_done_to_last_review", String.format(Locale.ROOT, "%.1f", afterUploads));
        }
        RESULT.put(p + "_created_to_reviewed_ms", roundedSummary(reviewLatencyMs.sorted(), 1));
        cpu1.putDelta(cpu0, p, RESULT, Locale.ROOT, true);
    }

    static Map<?, ?> review(Map<?, ?> submission) {
        return (Map<?, ?>) submission.get("review");
    }

    static String kinds(List<Submission> submissions) {
        Map<String, Integer> kinds = new TreeMap<>();
        for (Submission s : submissions) kinds.merge(s.kind, 1, Integer::sum);
        return kinds.toString().replace(' ', '_');
    }

    /** Every submission of the homework, through GET .../submissions?limit=100&offset=... (newest first). */
    static Map<String, Map<?, ?>> listAll() throws Exception {
        Map<String, Map<?, ?>> all = new HashMap<>();
        for (int offset = 0; ; offset += 100) {
            HttpRequest request = HttpRequest.newBuilder(URI.create(Kit.opt("base", null) + "/v1/homeworks/"
                            + Kit.opt("homework", null) + "/submissions?limit=100&offset=" + offset))
                    .timeout(Duration.ofSeconds(60))
                    .header("x-tenant-api-secret", Kit.opt("key", null))
                    .GET()
                    .build();
            HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) throw new IllegalStateException("list: " + response.statusCode() + " " + response.body());
            Map<?, ?> page = (Map<?, ?>) Json.parse(response.body());
            for (Object o : (List<?>) page.get("data")) {
                Map<?, ?> s = (Map<?, ?>) o;
                all.put((String) s.get("id"), s);
            }
            if (!Boolean.TRUE.equals(page.get("nextPage"))) return all;
        }
    }

    // ============================================================================================================
    // latency: closed loop of uploads, measured in a window
    // ============================================================================================================
    static void latency() throws Exception {
        String solution = solution();
        long seed = Long.parseLong(Kit.opt("seed", "42"));
        int clients = intOpt("clients", 20);
        long warmup = Long.parseLong(Kit.opt("warmup", "0"));
        long duration = Long.parseLong(Kit.opt("duration", "30"));
        int pool = intOpt("pool", 100);
        int first = intOpt("first_index", 100000);
        String p = Kit.opt("prefix", "lat");
        List<Submission> submissions = new ArrayList<>();
        for (int i = 0; i < pool; i++) submissions.add(Submission.generate(solution, seed, first + i));
        AtomicInteger next = new AtomicInteger();
        List<Upload> measured = Collections.synchronizedList(new ArrayList<>());
        Map<String, Integer> statuses = new ConcurrentHashMap<>();
        AtomicInteger problems = new AtomicInteger();
        long t0 = System.nanoTime();
        long windowStart = t0 + warmup * 1_000_000_000L;
        long windowEnd = windowStart + duration * 1_000_000_000L;
        Kit.Cpu[] cpu0 = new Kit.Cpu[1];
        Thread sampler = Thread.ofVirtual().start(() -> {
            try {
                Thread.sleep(Math.max(0, (windowStart - System.nanoTime()) / 1_000_000));
                cpu0[0] = Kit.Cpu.sample();
            } catch (Exception ignored) {
            }
        });
        Kit.log(clients + " uploaders; warm-up " + warmup + " s, measure " + duration + " s");
        List<Thread> threads = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            threads.add(Thread.ofVirtual().start(() -> {
                while (System.nanoTime() < windowEnd) {
                    int i = next.getAndIncrement();
                    Upload u = upload(submissions.get(i % pool), "latency-" + p + "-" + i);
                    if (u.startNs >= windowStart && u.startNs < windowEnd) {
                        measured.add(u);
                        statuses.merge(String.valueOf(u.status), 1, Integer::sum);
                    }
                    if (u.status != 201 && problems.incrementAndGet() <= 5) Kit.log("upload " + u.status + ": " + u.problem);
                }
            }));
        }
        sampler.join();
        Thread.sleep(Math.max(0, (windowEnd - System.nanoTime()) / 1_000_000));
        Kit.Cpu cpu1 = Kit.Cpu.sample();
        Instant windowEndWall = Instant.now();
        for (Thread t : threads) t.join();
        Kit.LongList ok = new Kit.LongList();
        for (Upload u : measured) if (u.status == 201) ok.add(u.endNs - u.startNs);
        RESULT.put(p + "_clients", String.valueOf(clients));
        RESULT.put(p + "_duration_s", String.valueOf(duration));
        RESULT.put(p + "_window_start", windowEndWall.minusNanos(duration * 1_000_000_000L).toString());
        RESULT.put(p + "_window_end", windowEndWall.toString());
        RESULT.put(p + "_uploads", String.valueOf(measured.size()));
        RESULT.put(p + "_uploads_201", String.valueOf(ok.size));
        RESULT.put(p + "_statuses", new TreeMap<>(statuses).toString().replace(' ', '_'));
        RESULT.put(p + "_uploads_per_s", String.format(Locale.ROOT, "%.1f", ok.size / (double) duration));
        RESULT.put(p + "_bytes_per_submission", String.valueOf(submissions.stream().mapToLong(Submission::bytes).sum() / pool));
        RESULT.put(p + "_uploads_total", String.valueOf(next.get()));
        RESULT.put(p + "_upload_ms", roundedSummary(ok.sorted(), 1e6));
        cpu1.putDelta(cpu0[0], p, RESULT, Locale.ROOT, true);
    }

    // ============================================================================================================
    // Generated submissions
    // ============================================================================================================
    record GenFile(String name, byte[] bytes) {
        String contentType() {
            if (name.endsWith(".py")) return "text/x-python";
            if (name.endsWith(".md")) return "text/markdown";
            if (name.endsWith(".csv")) return "text/csv";
            return "text/plain";
        }
    }

    static final class Submission {
        final int index;
        final String kind;
        final List<GenFile> files;

        Submission(int index, String kind, List<GenFile> files) {
            this.index = index;
            this.kind = kind;
            this.files = files;
        }

        long bytes() {
            return files.stream().mapToLong(f -> f.bytes.length).sum();
        }

        byte[] multipart(String boundary, String studentId) {
            var out = new java.io.ByteArrayOutputStream((int) bytes() + 4096);
            String dash = "--" + boundary + "\r\n";
            out.writeBytes((dash + "Content-Disposition: form-data; name=\"studentId\"\r\n\r\n" + studentId + "\r\n")
                    .getBytes(StandardCharsets.UTF_8));
            for (GenFile f : files) {
                out.writeBytes((dash + "Content-Disposition: form-data; name=\"files\"; filename=\"" + f.name
                        + "\"\r\nContent-Type: " + f.contentType() + "\r\n\r\n").getBytes(StandardCharsets.UTF_8));
                out.writeBytes(f.bytes);
                out.writeBytes("\r\n".getBytes(StandardCharsets.UTF_8));
            }
            out.writeBytes(("--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8));
            return out.toByteArray();
        }

        /**
         * The submission of this index: its kind by weight, then its files. The same (seed, index) gives the same
         * bytes on every run.
         */
        static Submission generate(String solution, long seed, int index) {
            Random rng = new Random(seed * 1_000_003L + index * 7919L);
            int files = intOpt("files", 10);
            int size = intOpt("file_kb", 20) * 1024;
            double k = rng.nextDouble();
            String kind = k < 0.30 ? "near-copy" : k < 0.55 ? "partial" : k < 0.70 ? "rewrite"
                    : k < 0.80 ? "forbidden-import" : k < 0.90 ? "prose" : "mixed";
            Gen g = new Gen(rng, solution);
            List<GenFile> out = new ArrayList<>();
            for (int i = 0; i < files; i++) {
                out.add(g.file(kind, i, size));
            }
            return new Submission(index, kind, out);
        }
    }

    /** The text generators: variants of the reference solution, pytest tests, gradebook CSVs, prose. */
    static final class Gen {
        private static final String[][] SYNONYMS = {
            {"values", "data"}, {"ordered", "sorted_values"}, {"percentages", "pcts"}, {"percentage", "pct"},
            {"gradebook", "book"}, {"student", "learner"}, {"students", "learners"}, {"assessment", "item"},
            {"assessments", "items"}, {"numerator", "num"}, {"denominator", "den"}, {"centre", "avg"},
            {"deviation", "sd"}, {"flagged", "risky"}, {"counts", "tally"}, {"finals", "final_pcts"},
            {"position", "pos"}, {"buffer", "buf"}, {"handle", "fh"}, {"candidate", "cand"}, {"middle", "mid"},
            {"total", "tot"}, {"rows", "records"}, {"row", "record"}, {"cell", "entry"}, {"names", "labels"},
            {"scores", "marks"}, {"score", "mark"}, {"letters", "grade_letters"}, {"ranked", "result"},
            {"previous", "prev"}, {"summaries", "stats_list"}, {"excused", "exempt"}, {"threshold", "cutoff"},
        };
        private static final String[] FIRST = {"Ada", "Bilal", "Chen", "Dana", "Emeka", "Farah", "Goran", "Hana",
            "Ivan", "Jasmin", "Kofi", "Lena", "Mateo", "Nadia", "Omar", "Priya", "Quinn", "Rosa", "Sven", "Tariq",
            "Uma", "Viktor", "Wen", "Yusuf", "Zoe"};
        private static final String[] LAST = {"Okafor", "Lindqvist", "Moreau", "Tanaka", "Novak", "Haddad",
            "Schmidt", "Rossi", "Kowalski", "Nguyen", "Garcia", "Ivanova", "Mensah", "Patel", "O'Brien", "Larsen"};
        private static final String[][] TOPICS = {
            {"the history of the bicycle", "the safety bicycle", "pneumatic tyres", "the penny-farthing",
                "chain drives", "cycling clubs", "road surfaces", "women's cycling", "bicycle couriers"},
            {"growing tomatoes on a balcony", "potting soil", "cherry tomatoes", "watering schedules", "aphids",
                "companion planting", "basil", "south-facing windows", "fertiliser"},
            {"a week in Lisbon", "the tram line 28", "custard tarts", "the Alfama district", "fado singers",
                "tiled facades", "the river Tagus", "steep streets", "sardines"},
            {"amateur astronomy", "the Andromeda galaxy", "light pollution", "a small refractor", "star charts",
                "the rings of Saturn", "dark adaptation", "meteor showers", "long exposures"},
            {"baking sourdough bread", "the starter", "hydration", "the autolyse", "a Dutch oven", "rye flour",
                "the crumb", "overnight proofing", "scoring the loaf"},
        };
        private static final String[] HOMEWORK_TERMS = {"the weighted average", "excused scores", "the curve",
            "the letter boundaries", "the median", "the sample standard deviation", "the percentile interpolation",
            "the ranking with ties", "the CSV parser", "the weights row", "students at risk", "the report table",
            "missing scores", "the histogram of letters", "the merge of two sections", "the lowest quiz"};
        private static final String[] VERBS = {"changed", "shaped", "explained", "complicated", "improved",
            "surprised", "followed", "replaced", "taught me about", "depended on", "came before", "outlasted"};
        private static final String[] OPENERS = {"In the end", "At first", "Looking back", "Surprisingly",
            "For a long time", "According to most accounts", "In my experience", "Over the years", "Curiously",
            "Most of the time", "Even so", "By contrast"};
        private static final String[] CLOSERS = {"which nobody expected", "more than once", "in a quiet way",
            "for better or worse", "as the records show", "without much planning", "almost by accident",
            "in every season", "to everyone's relief", "despite the cost"};

        final Random rng;
        final String solution;
        final List<String> blocks;
        final String header;

        Gen(Random rng, String solution) {
            this.rng = rng;
            this.solution = solution;
            List<String> parts = splitBlocks(solution);
            this.header = parts.getFirst();
            this.blocks = parts.subList(1, parts.size());
        }

        GenFile file(String kind, int i, int size) {
            return switch (kind) {
                case "prose" -> prose(i, size, false);
                case "mixed" -> switch (i % 10) {
                    case 0 -> new GenFile("gradebook.py", fit(partial(0.5), () -> testCases(3), "# ", size));
                    case 1 -> new GenFile("test_gradebook.py", fit(testsHeader(), () -> testCases(4), "# ", size));
                    case 2 -> new GenFile("README.md", fit("# My gradebook\n\n", () -> paragraph(true), "", size));
                    case 3, 4 -> new GenFile("section_" + (char) ('a' + i - 3) + ".csv", fit(csv(), this::csvRows, "# ", size));
                    default -> prose(i, size, false);
                };
                default -> codeFile(kind, i, size);
            };
        }

        GenFile codeFile(String kind, int i, int size) {
            String name = switch (i % 10) {
                case 0 -> "gradebook.py";
                case 1 -> "stats.py";
                case 2 -> "report.py";
                case 3 -> "test_gradebook.py";
                case 4 -> "test_stats.py";
                case 5 -> "README.md";
                case 6 -> "NOTES.md";
                case 7 -> "section_a.csv";
                case 8 -> "section_b.csv";
                default -> "gradebook_draft.py";
            };
            if (i >= 10) name = name.replace(".", "_" + (i / 10) + ".");
            return switch (i % 10) {
                case 0, 1, 2 -> new GenFile(name, fit(variant(kind), () -> testCases(3), "# ", size));
                case 3, 4 -> new GenFile(name, fit(testsHeader(), () -> testCases(4), "# ", size));
                case 5 -> new GenFile(name, fit("# Gradebook\n\n", () -> paragraph(true), "", size));
                case 6 -> new GenFile(name, fit("# Notes\n\n", () -> paragraph(rng.nextInt(4) > 0), "", size));
                case 7, 8 -> new GenFile(name, fit(csv(), this::csvRows, "# ", size));
                default -> new GenFile(name, fit(partial(0.3 + rng.nextDouble() * 0.3), () -> testCases(3), "# ", size));
            };
        }

        GenFile prose(int i, int size, boolean related) {
            String[] topic = TOPICS[rng.nextInt(TOPICS.length)];
            String title = "# " + Character.toUpperCase(topic[0].charAt(0)) + topic[0].substring(1) + "\n\n";
            return new GenFile(String.format("essay_%02d.%s", i + 1, i % 2 == 0 ? "md" : "txt"),
                    fit(title, () -> topicParagraph(topic), "", size));
        }

        /** The solution as a student of this kind might hand it in. */
        String variant(String kind) {
            return switch (kind) {
                case "near-copy" -> mutate(rename(solution, 0.2), 0.01);
                case "partial" -> partial(0.3 + rng.nextDouble() * 0.5);
                case "rewrite" -> rewrite();
                case "forbidden-import" -> forbidden();
                default -> mutate(rename(solution, 0.5), 0.03);
            };
        }

        /** The first share of the functions written, the others left as stubs. */
        String partial(double share) {
            StringBuilder out = new StringBuilder(rename(header, 0.3));
            int keep = (int) Math.round(blocks.size() * share);
            for (int b = 0; b < blocks.size(); b++) {
                String block = blocks.get(b);
                out.append(b < keep || !block.startsWith("def ") ? mutate(rename(block, 0.3), 0.02) : stub(block));
            }
            return out.toString();
        }

        /** The same functions in another order and another style: other names, no docstrings. */
        String rewrite() {
            List<String> shuffled = new ArrayList<>(blocks);
            // keep the classes first (the functions use them), shuffle the functions
            List<String> classes = new ArrayList<>(), functions = new ArrayList<>();
            for (String b : shuffled) (b.startsWith("def ") ? functions : classes).add(b);
            Collections.shuffle(functions, rng);
            StringBuilder out = new StringBuilder("# gradebook, my own version\nimport csv\nimport io\nimport math\n"
                    + "from dataclasses import dataclass, field\nfrom typing import Dict, Iterable, List, Optional, Sequence, Tuple\n\n"
                    + header.substring(header.indexOf("LETTER_BOUNDARIES")));
            for (String b : classes) out.append(withoutDocstrings(rename(b, 1.0)));
            for (String b : functions) out.append(withoutDocstrings(rename(b, 1.0)));
            return mutate(out.toString(), 0.02);
        }

        /** A near copy that uses what the restrictions forbid (statistics, numpy). */
        String forbidden() {
            String text = mutate(rename(solution, 0.2), 0.01);
            text = text.replace("import math\n", "import math\nimport statistics\nimport numpy as np\n");
            text = replaceFunction(text, "def mean(", "def mean(values):\n    return statistics.mean(values)\n\n\n");
            text = replaceFunction(text, "def median(", "def median(values):\n    return float(np.median(values))\n\n\n");
            text = replaceFunction(text, "def standard_deviation(",
                    "def standard_deviation(values, sample=True):\n    return float(np.std(values, ddof=1 if sample else 0))\n\n\n");
            return text;
        }

        static String replaceFunction(String text, String start, String replacement) {
            int i = text.indexOf("\n" + start);
            if (i < 0) return text;
            int end = text.indexOf("\ndef ", i + 1);
            int endClass = text.indexOf("\nclass ", i + 1), endDeco = text.indexOf("\n@", i + 1);
            for (int e : new int[] {endClass, endDeco}) if (e > 0 && (end < 0 || e < end)) end = e;
            return text.substring(0, i + 1) + replacement + (end < 0 ? "" : text.substring(end + 1));
        }

        static String stub(String block) {
            StringBuilder out = new StringBuilder();
            for (String line : block.split("\n", -1)) {
                out.append(line).append('\n');
                if (line.stripTrailing().endsWith(":")) break;
            }
            return out + "    # TODO: not finished\n    raise NotImplementedError\n\n\n";
        }

        static String withoutDocstrings(String block) {
            StringBuilder out = new StringBuilder();
            boolean inside = false;
            for (String line : block.split("\n", -1)) {
                String t = line.strip();
                if (!inside && t.startsWith("\"\"\"")) {
                    if (!(t.length() >= 6 && t.endsWith("\"\"\""))) inside = true;
                    continue;
                }
                if (inside) {
                    if (t.endsWith("\"\"\"")) inside = false;
                    continue;
                }
                out.append(line).append('\n');
            }
            return out.toString().replaceAll("\n+$", "\n\n\n");
        }

        /** Renames each identifier of the synonym list with the given probability (whole words only). */
        String rename(String text, double probability) {
            for (String[] pair : SYNONYMS) {
                if (rng.nextDouble() < probability) {
                    text = text.replaceAll("\\b" + pair[0] + "\\b", pair[1]);
                }
            }
            return text;
        }

        private static final Pattern NUMBER = Pattern.compile("\\b\\d+(\\.\\d+)?\\b");

        /** Small edits on a share of the lines: a boundary off by one, a number changed, a comment added. */
        String mutate(String text, double rate) {
            StringBuilder out = new StringBuilder();
            for (String line : text.split("\n", -1)) {
                if (rng.nextDouble() < rate && !line.isBlank()) {
                    switch (rng.nextInt(4)) {
                        case 0 -> line = line.contains(">=") ? line.replaceFirst(">=", ">") : line.replaceFirst(" < ", " <= ");
                        case 1 -> {
                            Matcher m = NUMBER.matcher(line);
                            if (m.find()) line = line.substring(0, m.start()) + (Double.parseDouble(m.group()) > 1 ? m.group() + "1" : "2") + line.substring(m.end());
                        }
                        case 2 -> line = line + "  # " + pick(new String[] {"check this", "fixed", "not sure", "TODO", "works"});
                        default -> line = line.replace("value", "v");
                    }
                }
                out.append(line).append('\n');
            }
            return out.substring(0, out.length() - 1);
        }

        static List<String> splitBlocks(String source) {
            List<String> parts = new ArrayList<>();
            StringBuilder current = new StringBuilder();
            boolean pendingDecorator = false;
            for (String line : source.split("\n", -1)) {
                boolean top = line.startsWith("def ") || line.startsWith("class ") || line.startsWith("@")
                        || line.startsWith("if __name__");
                if (top && !pendingDecorator) {
                    parts.add(current.toString());
                    current.setLength(0);
                }
                pendingDecorator = line.startsWith("@");
                current.append(line).append('\n');
            }
            parts.add(current.toString());
            return parts;
        }

        String testsHeader() {
            return "import pytest\n\nfrom gradebook import (\n    GradebookError, histogram, letter_grade, mean, median,"
                    + " percentile, rank, read_gradebook,\n)\n\n\n";
        }

        private int testNumber;

        /** pytest cases with their expected values worked out here. */
        String testCases(int count) {
            StringBuilder out = new StringBuilder();
            for (int c = 0; c < count; c++) {
                int t = testNumber++;
                switch (rng.nextInt(5)) {
                    case 0 -> {
                        double pct = Math.round(rng.nextDouble() * 1000) / 10.0;
                        out.append("def test_letter_grade_").append(t).append("():\n    assert letter_grade(")
                                .append(pct).append(") == \"").append(letter(pct)).append("\"\n\n\n");
                    }
                    case 1 -> {
                        int[] v = ints(3 + rng.nextInt(7));
                        out.append("def test_mean_").append(t).append("():\n    assert mean(").append(Arrays.toString(v))
                                .append(") == pytest.approx(").append(String.format(Locale.ROOT, "%.6f", Arrays.stream(v).average().orElseThrow()))
                                .append(")\n\n\n");
                    }
                    case 2 -> {
                        int[] v = ints(3 + rng.nextInt(7));
                        int[] s = v.clone();
                        Arrays.sort(s);
                        double med = s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2.0;
                        out.append("def test_median_").append(t).append("():\n    assert median(").append(Arrays.toString(v))
                                .append(") == pytest.approx(").append(med).append(")\n\n\n");
                    }
                    case 3 -> {
                        String a = FIRST[rng.nextInt(FIRST.length)].toLowerCase(Locale.ROOT);
                        out.append("def test_duplicate_student_is_rejected_").append(t).append("():\n")
                                .append("    text = \"student_id,name,hw\\nweight,,100\\n").append(a).append(",A,50\\n")
                                .append(a).append(",B,60\\n\"\n    with pytest.raises(GradebookError, match=\"twice\"):\n")
                                .append("        read_gradebook(text)\n\n\n");
                    }
                    default -> {
                        int n = 2 + rng.nextInt(6);
                        StringBuilder letters = new StringBuilder();
                        int a = 0;
                        for (int i = 0; i < n; i++) {
                            String l = String.valueOf("ABCDEF".charAt(rng.nextInt(6)));
                            if (l.equals("A")) a++;
                            letters.append(i == 0 ? "" : ", ").append('"').append(l).append('"');
                        }
                        out.append("def test_histogram_").append(t).append("():\n    counts = histogram([").append(letters)
                                .append("])\n    assert counts[\"A\"] == ").append(a).append("\n    assert sum(counts.values()) == ")
                                .append(n).append("\n\n\n");
                    }
                }
            }
            return out.toString();
        }

        static String letter(double pct) {
            return pct >= 90 ? "A" : pct >= 80 ? "B" : pct >= 70 ? "C" : pct >= 60 ? "D" : pct >= 50 ? "E" : "F";
        }

        int[] ints(int n) {
            int[] v = new int[n];
            for (int i = 0; i < n; i++) v[i] = rng.nextInt(101);
            return v;
        }

        String csv() {
            return "student_id,name,quiz1,quiz2,quiz3,midterm,project,final\nweight,,5,5,5,25,20,40\n";
        }

        int csvStudent;

        String csvRows() {
            StringBuilder out = new StringBuilder();
            for (int r = 0; r < 10; r++) {
                out.append('s').append(String.format("%04d", csvStudent++)).append(',')
                        .append(FIRST[rng.nextInt(FIRST.length)]).append(' ').append(LAST[rng.nextInt(LAST.length)].replace("'", ""));
                for (int c = 0; c < 6; c++) {
                    int roll = rng.nextInt(40);
                    out.append(',').append(roll == 0 ? "EX" : roll == 1 ? "" : String.valueOf(30 + rng.nextInt(71)));
                }
                out.append('\n');
            }
            return out.toString();
        }

        String paragraph(boolean related) {
            if (!related) return topicParagraph(TOPICS[rng.nextInt(TOPICS.length)]);
            StringBuilder out = new StringBuilder();
            int sentences = 4 + rng.nextInt(4);
            for (int s = 0; s < sentences; s++) {
                String a = pick(HOMEWORK_TERMS), b = pick(HOMEWORK_TERMS);
                out.append(switch (rng.nextInt(6)) {
                    case 0 -> "I wrote " + a + " first, because " + b + " depends on it.";
                    case 1 -> "The tests for " + a + " failed until I noticed that " + b + " was off by one.";
                    case 2 -> pick(OPENERS) + ", " + a + " " + pick(VERBS) + " " + b + ".";
                    case 3 -> "I am not sure whether " + a + " should treat " + b + " as zero or leave it out.";
                    case 4 -> "For " + a + " I used a plain loop instead of a library, as the restrictions ask.";
                    default -> "Next time I would test " + a + " with more edge cases, " + pick(CLOSERS) + ".";
                }).append(' ');
            }
            return out.toString().strip() + (rng.nextInt(5) == 0 ? "\n\n## " + cap(pick(HOMEWORK_TERMS)) : "") + "\n\n";
        }

        String topicParagraph(String[] topic) {
            StringBuilder out = new StringBuilder();
            int sentences = 4 + rng.nextInt(4);
            for (int s = 0; s < sentences; s++) {
                String a = topic[1 + rng.nextInt(topic.length - 1)], b = topic[1 + rng.nextInt(topic.length - 1)];
                out.append(switch (rng.nextInt(5)) {
                    case 0 -> pick(OPENERS) + ", " + a + " " + pick(VERBS) + " " + b + ", " + pick(CLOSERS) + ".";
                    case 1 -> cap(a) + " " + pick(VERBS) + " " + b + ".";
                    case 2 -> "Nobody who writes about " + topic[0] + " can leave out " + a + ".";
                    case 3 -> "It is easy to forget how much " + a + " " + pick(VERBS) + " " + b + " " + pick(CLOSERS) + ".";
                    default -> "What I remember best is " + a + ", and after that " + b + ".";
                }).append(' ');
            }
            return out.toString().strip() + (rng.nextInt(5) == 0 ? "\n\n## " + cap(pick(topic)) : "") + "\n\n";
        }

        static String cap(String s) {
            return Character.toUpperCase(s.charAt(0)) + s.substring(1);
        }

        String pick(String[] words) {
            return words[rng.nextInt(words.length)];
        }

        /**
         * The text grown with more until it reaches size bytes, cut after the last whole unit that fits (a line; for
         * Python a top-level block, so that no function is cut in half), and padded with comment lines (or lines of
         * words) to exactly size bytes. Everything generated is ASCII.
         */
        byte[] fit(String start, Supplier<String> more, String commentPrefix, int size) {
            StringBuilder text = new StringBuilder(start);
            while (text.length() < size) text.append(more.get());
            boolean python = commentPrefix.startsWith("#") && text.indexOf("\ndef ") >= 0;
            int cut = python ? text.lastIndexOf("\n\n\n", size - 3) + 2 : text.lastIndexOf("\n", size - 1);
            if (cut < 1) cut = text.lastIndexOf("\n", size - 1);
            text.setLength(cut + 1);
            while (text.length() < size) {
                int left = size - text.length();
                StringBuilder line = new StringBuilder(commentPrefix);
                while (line.length() < Math.min(78, left - 1)) line.append(pick(CLOSERS)).append(' ');
                line.setLength(Math.max(0, Math.min(78, left - 1)));
                // never leave a last line of one byte: make this one shorter instead
                if (left - (line.length() + 1) == 1) line.setLength(line.length() - 1);
                text.append(line).append('\n');
            }
            byte[] bytes = text.toString().getBytes(StandardCharsets.UTF_8);
            if (bytes.length != size) throw new IllegalStateException("generated " + bytes.length + " bytes, not " + size);
            return bytes;
        }
    }

    // ============================================================================================================
    // Figures of this client's own: numbers written for Locale.ROOT, latencies to 0.1 ms and without p999
    // ============================================================================================================
    static String roundedSummary(long[] sorted, double unit) {
        if (sorted.length == 0) return "none";
        return String.format(Locale.ROOT, "n=%d,avg=%.1f,p50=%.1f,p90=%.1f,p99=%.1f,max=%.1f", sorted.length,
                Kit.avg(sorted) / unit, Kit.pct(sorted, 50) / unit, Kit.pct(sorted, 90) / unit, Kit.pct(sorted, 99) / unit,
                sorted[sorted.length - 1] / unit);
    }

    static String secs(long nanos) {
        return String.format(Locale.ROOT, "%.2f", nanos / 1e9);
    }

    // ============================================================================================================
    // A small JSON reader (objects, arrays, strings, numbers, true/false/null): enough for the service's answers
    // ============================================================================================================
    static final class Json {
        private final String s;
        private int i;

        private Json(String s) {
            this.s = s;
        }

        static Object parse(String text) {
            Json j = new Json(text);
            Object v = j.value();
            j.space();
            if (j.i != text.length()) throw new IllegalArgumentException("trailing characters at " + j.i);
            return v;
        }

        private void space() {
            while (i < s.length() && Character.isWhitespace(s.charAt(i))) i++;
        }

        private Object value() {
            space();
            char c = s.charAt(i);
            switch (c) {
                case '{' -> {
                    Map<String, Object> m = new LinkedHashMap<>();
                    i++;
                    space();
                    if (s.charAt(i) == '}') {
                        i++;
                        return m;
                    }
                    while (true) {
                        space();
                        String key = string();
                        space();
                        expect(':');
                        m.put(key, value());
                        space();
                        if (s.charAt(i) == ',') i++;
                        else {
                            expect('}');
                            return m;
                        }
                    }
                }
                case '[' -> {
                    List<Object> l = new ArrayList<>();
                    i++;
                    space();
                    if (s.charAt(i) == ']') {
                        i++;
                        return l;
                    }
                    while (true) {
                        l.add(value());
                        space();
                        if (s.charAt(i) == ',') i++;
                        else {
                            expect(']');
                            return l;
                        }
                    }
                }
                case '"' -> {
                    return string();
                }
                default -> {
                    if (s.startsWith("true", i)) {
                        i += 4;
                        return Boolean.TRUE;
                    }
                    if (s.startsWith("false", i)) {
                        i += 5;
                        return Boolean.FALSE;
                    }
                    if (s.startsWith("null", i)) {
                        i += 4;
                        return null;
                    }
                    int start = i;
                    while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) i++;
                    if (start == i) throw new IllegalArgumentException("unexpected '" + c + "' at " + i);
                    return Double.parseDouble(s.substring(start, i));
                }
            }
        }

        private void expect(char c) {
            if (s.charAt(i) != c) throw new IllegalArgumentException("expected '" + c + "' at " + i);
            i++;
        }

        private String string() {
            expect('"');
            int start = i;
            while (s.charAt(i) != '"') i += s.charAt(i) == '\\' ? 2 : 1;
            return Kit.unescape(s.substring(start, i++));
        }
    }
}
