import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * What metering costs a reply (issue 30): the transaction that stores an assistant reply, as the service runs it
 * (the chat's next position, the message row, commit), timed without and with the metering statement that
 * {@code UsageMeter.record} adds to it (one statement: the usage row, the month's and the user's day's running sums,
 * the budgets read back). Also the budget check a frame costs ({@code UsageBudgets.spent}: one SELECT, outside any
 * transaction). The two transactions alternate, so that neither always has the warmer cache or the larger tables.
 * Runs with the JDK's source launcher against a PostgreSQL database it migrates itself from the service's
 * migrations (drop and create it before):
 *
 * <pre>
 *   java -cp POSTGRESQL_JDBC_JAR bench/MeteringCost.java jdbc:postgresql://127.0.0.1:5432/crs_bench_meter?user=postgres \
 *        [replies=20000] [warmup=3000] [chats=50] [users=200]
 * </pre>
 */
public class MeteringCost {

    static final String NEXT_POSITION = """
            UPDATE chats SET message_count = message_count + 1, last_message_at = now()
            WHERE id = ? AND tenant_id = ? RETURNING message_count""";
    static final String INSERT_MESSAGE = """
            INSERT INTO messages (chat_id, position, id, sender_role, content, media_type, media_url, metadata,
                                  client_message_id, created_at, event_seq)
            VALUES (?, ?, ?, 'assistant', ?, 'text/plain', NULL, ?::jsonb, NULL, now(), ?)""";
    // the statement of UsageMeter.record, with positional parameters
    static final String METER = """
            WITH recorded AS (
                INSERT INTO ai_usage (message_id, tenant_id, chat_id, user_id, kind, prompt_tokens,
                                      completion_tokens, total_tokens, estimated, occurred_at)
                VALUES (?, ?, ?, ?, 'chat', ?, ?, ?, false, now())
                ON CONFLICT (message_id) DO NOTHING
                RETURNING tenant_id, user_id, kind, total_tokens
            ), month AS (
                INSERT INTO usage_months AS m (tenant_id, month, tokens, reviews)
                SELECT tenant_id, ?, total_tokens, CASE WHEN kind = 'review' THEN 1 ELSE 0 END
                FROM recorded
                ON CONFLICT (tenant_id, month) DO UPDATE
                    SET tokens = m.tokens + excluded.tokens, reviews = m.reviews + excluded.reviews
                RETURNING tokens, reviews
            ), today AS (
                INSERT INTO usage_user_days AS d (tenant_id, user_id, day, tokens)
                SELECT tenant_id, user_id, ?, total_tokens FROM recorded
                ON CONFLICT (tenant_id, user_id, day) DO UPDATE SET tokens = d.tokens + excluded.tokens
            )
            SELECT month.tokens, month.reviews, b.monthly_tokens, b.monthly_reviews
            FROM month LEFT JOIN usage_budgets b ON b.tenant_id = ?""";
    // metering as it was before the budgets (V28): the usage row alone
    static final String ROW_ONLY = """
            INSERT INTO ai_usage (message_id, tenant_id, chat_id, user_id, kind, prompt_tokens,
                                  completion_tokens, total_tokens, estimated, occurred_at)
            VALUES (?, ?, ?, ?, 'chat', ?, ?, ?, false, now())
            ON CONFLICT (message_id) DO NOTHING""";
    // the statement of UsageBudgets.spent
    static final String CHECK = """
            SELECT b.monthly_tokens, b.monthly_reviews, b.per_user_daily_tokens,
                   COALESCE(m.tokens, 0) AS used_tokens, COALESCE(m.reviews, 0) AS used_reviews,
                   COALESCE(d.tokens, 0) AS user_tokens_today
            FROM usage_budgets b
            LEFT JOIN usage_months m ON m.tenant_id = b.tenant_id AND m.month = ?
            LEFT JOIN usage_user_days d ON d.tenant_id = b.tenant_id AND d.user_id = ? AND d.day = ?
            WHERE b.tenant_id = ?""";

    public static void main(String[] args) throws Exception {
        String url = args[0];
        int replies = intArg(args, "replies", 20_000);
        int warmup = intArg(args, "warmup", 3_000);
        int chatCount = intArg(args, "chats", 50);
        int userCount = intArg(args, "users", 200);
        try (Connection c = DriverManager.getConnection(url)) {
            migrate(c);
            UUID tenant = UUID.randomUUID();
            try (Statement s = c.createStatement()) {
                s.execute("INSERT INTO tenants (id, name, created_at) VALUES ('" + tenant + "', 'bench', now())");
                // a budget row, so that the check reads the sums (a tenant without budgets costs less)
                s.execute("INSERT INTO usage_budgets (tenant_id, monthly_tokens, per_user_daily_tokens) VALUES ('"
                        + tenant + "', 1000000000000, 1000000000)");
            }
            UUID[] chats = new UUID[chatCount];
            for (int i = 0; i < chatCount; i++) {
                chats[i] = UUID.randomUUID();
                try (PreparedStatement p = c.prepareStatement(
                        "INSERT INTO users (tenant_id, user_id, created_at) VALUES (?, ?, now())")) {
                    p.setObject(1, tenant);
                    p.setString(2, "user-" + i);
                    p.executeUpdate();
                }
                try (PreparedStatement p = c.prepareStatement(
                        "INSERT INTO chats (id, tenant_id, user_id, title, title_given, config, status, created_at, updated_at)"
                                + " VALUES (?, ?, ?, 'bench', true, '{}', 'active', now(), now())")) {
                    p.setObject(1, chats[i]);
                    p.setObject(2, tenant);
                    p.setString(3, "user-" + i);
                    p.executeUpdate();
                }
            }
            c.setAutoCommit(false);
            PreparedStatement next = c.prepareStatement(NEXT_POSITION);
            PreparedStatement insert = c.prepareStatement(INSERT_MESSAGE);
            PreparedStatement meter = c.prepareStatement(METER);
            PreparedStatement rowOnly = c.prepareStatement(ROW_ONLY);
            PreparedStatement check = c.prepareStatement(CHECK);
            String content = "A fraction names a part of a whole: the denominator says into how many equal parts"
                    + " the whole is cut, the numerator how many of them are taken. ".repeat(4);
            String metadata = "{\"provider\": \"offline\", \"model\": \"offline\", \"usage\": {\"prompt_tokens\": 120,"
                    + " \"completion_tokens\": 90, \"total_tokens\": 210, \"estimated\": false}}";
            long[] plain = new long[replies];
            long[] metered = new long[replies];
            long[] rowMetered = new long[replies];
            long[] checks = new long[replies];
            long seq = 0;
            for (int i = -warmup; i < replies; i++) {
                for (int variant = 0; variant < 3; variant++) {
                    int mode = Math.floorMod(i + variant, 3); // 0 none, 1 the row alone, 2 as the service meters
                    boolean metering = mode == 2;
                    UUID chat = chats[Math.floorMod(i * 3 + variant, chatCount)];
                    String user = "user-" + Math.floorMod(i * 7 + variant, userCount);
                    long start = System.nanoTime();
                    next.setObject(1, chat);
                    next.setObject(2, tenant);
                    int position;
                    try (ResultSet rs = next.executeQuery()) {
                        rs.next();
                        position = rs.getInt(1);
                    }
                    UUID id = UUID.randomUUID();
                    insert.setObject(1, chat);
                    insert.setInt(2, position);
                    insert.setObject(3, id);
                    insert.setString(4, content);
                    insert.setString(5, metadata);
                    insert.setLong(6, ++seq);
                    insert.executeUpdate();
                    if (metering) {
                        LocalDate today = LocalDate.now(ZoneOffset.UTC);
                        meter.setObject(1, id);
                        meter.setObject(2, tenant);
                        meter.setObject(3, chat);
                        meter.setString(4, user);
                        meter.setInt(5, 120);
                        meter.setInt(6, 90);
                        meter.setInt(7, 210);
                        meter.setObject(8, today.withDayOfMonth(1));
                        meter.setObject(9, today);
                        meter.setObject(10, tenant);
                        try (ResultSet rs = meter.executeQuery()) {
                            rs.next();
                        }
                    }
                    if (mode == 1) {
                        rowOnly.setObject(1, id);
                        rowOnly.setObject(2, tenant);
                        rowOnly.setObject(3, chat);
                        rowOnly.setString(4, user);
                        rowOnly.setInt(5, 120);
                        rowOnly.setInt(6, 90);
                        rowOnly.setInt(7, 210);
                        rowOnly.executeUpdate();
                    }
                    c.commit();
                    long took = System.nanoTime() - start;
                    if (i >= 0) {
                        (mode == 2 ? metered : mode == 1 ? rowMetered : plain)[i] = took;
                    }
                    if (variant == 0) {
                        c.setAutoCommit(true);
                        LocalDate today = LocalDate.now(ZoneOffset.UTC);
                        long startCheck = System.nanoTime();
                        check.setObject(1, today.withDayOfMonth(1));
                        check.setString(2, user);
                        check.setObject(3, today);
                        check.setObject(4, tenant);
                        try (ResultSet rs = check.executeQuery()) {
                            rs.next();
                        }
                        long tookCheck = System.nanoTime() - startCheck;
                        c.setAutoCommit(false);
                        if (i >= 0) {
                            checks[i] = tookCheck;
                        }
                    }
                }
            }
            System.out.printf("replies per variant: %d (after %d warm-up pairs), %d chats, %d users%n",
                    replies, warmup, chatCount, userCount);
            report("store a reply, without metering", plain);
            report("store a reply, usage row alone ", rowMetered);
            report("store a reply, with metering   ", metered);
            System.out.printf("metering adds: median %.1f us, mean %.1f us (one statement in the same transaction)%n",
                    (median(metered) - median(plain)) / 1000.0, (mean(metered) - mean(plain)) / 1000.0);
            System.out.printf("of which the running sums: median %.1f us, mean %.1f us%n",
                    (median(metered) - median(rowMetered)) / 1000.0, (mean(metered) - mean(rowMetered)) / 1000.0);
            report("budget check of a frame        ", checks);
        }
    }

    static void migrate(Connection c) throws Exception {
        Path dir = Path.of("src/main/resources/db/migration");
        List<Path> files;
        try (Stream<Path> all = Files.list(dir)) {
            files = all.filter(p -> p.getFileName().toString().matches("V\\d+__.*\\.sql"))
                    .sorted(Comparator.comparingInt(p -> Integer.parseInt(
                            p.getFileName().toString().substring(1, p.getFileName().toString().indexOf("__")))))
                    .toList();
        }
        try (Statement s = c.createStatement()) {
            for (Path file : files) {
                s.execute(Files.readString(file));
            }
        }
    }

    static void report(String name, long[] nanos) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        System.out.printf("%s  median %7.1f us  mean %7.1f us  p90 %7.1f us  p99 %7.1f us%n", name,
                sorted[sorted.length / 2] / 1000.0, mean(nanos) / 1000.0, sorted[sorted.length * 9 / 10] / 1000.0,
                sorted[sorted.length * 99 / 100] / 1000.0);
    }

    static double median(long[] nanos) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    static double mean(long[] nanos) {
        return Arrays.stream(nanos).average().orElse(0);
    }

    static int intArg(String[] args, String name, int fallback) {
        for (String arg : args) {
            if (arg.startsWith(name + "=")) {
                return Integer.parseInt(arg.substring(name.length() + 1));
            }
        }
        return fallback;
    }
}
