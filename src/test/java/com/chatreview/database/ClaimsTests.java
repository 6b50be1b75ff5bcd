package com.chatreview.database;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every claim of rows by a node (jobs, deliveries, scores) takes at most what it asks for. PostgreSQL can run a
 * {@code SELECT ... LIMIT n FOR UPDATE SKIP LOCKED} under an UPDATE's {@code IN} once per row it updates, skipping the
 * rows the statement has just updated, and so claim far more than n: a poll of 4 review workers once took all 200
 * waiting reviews ({@link JobSchedulers}). Which plan PostgreSQL picks depends on its statistics, so no test can count
 * on seeing it; what is checked here is that no statement can do it: each locking sub-select is run once, as a
 * materialized CTE or a scalar sub-select ({@code = (SELECT ... LIMIT 1 ...)}), and every job scheduler is built by
 * {@link JobSchedulers}.
 */
class ClaimsTests {

    private static final Path SOURCES = Path.of("src/main/java");

    private static final Pattern RUN_ONCE = Pattern.compile("(?s).*(\\bAS\\s+MATERIALIZED|=)\\s*$");

    @Test
    void everyLockingSubSelectRunsOnce() {
        List<String> unsafe = new ArrayList<>();
        int seen = 0;
        for (Path file : javaSources()) {
            String code = withoutComments(read(file));
            for (int at = code.indexOf("SKIP LOCKED"); at >= 0; at = code.indexOf("SKIP LOCKED", at + 1)) {
                seen++;
                int open = enclosingParenthesis(code, at);
                String before = code.substring(Math.max(0, open - 40), Math.max(0, open));
                if (open < 0 || !RUN_ONCE.matcher(before).matches()) {
                    unsafe.add(SOURCES.relativize(file) + " at \"..." + before.strip() + " (\"");
                }
            }
        }
        assertThat(seen)
                .as("locking sub-selects found (the scan reads the sources)")
                .isGreaterThanOrEqualTo(2);
        assertThat(unsafe)
                .as("SKIP LOCKED sub-selects that are not a materialized CTE or a scalar sub-select")
                .isEmpty();
    }

    @Test
    void everyJobSchedulerIsBuiltByJobSchedulers() {
        List<String> elsewhere = new ArrayList<>();
        for (Path file : javaSources()) {
            if (!file.endsWith("JobSchedulers.java")
                    && withoutComments(read(file)).contains("Scheduler.create(")) {
                elsewhere.add(SOURCES.relativize(file).toString());
            }
        }
        assertThat(elsewhere)
                .as("db-scheduler schedulers built without JobSchedulers")
                .isEmpty();
    }

    private static int enclosingParenthesis(String code, int from) {
        int depth = 0;
        for (int i = from; i >= 0; i--) {
            char c = code.charAt(i);
            if (c == ')') {
                depth++;
            } else if (c == '(') {
                if (depth == 0) {
                    return i;
                }
                depth--;
            }
        }
        return -1;
    }

    /** Comment lines name the pattern they warn of; only code counts. */
    private static String withoutComments(String source) {
        StringBuilder code = new StringBuilder();
        for (String line : source.split("\n", -1)) {
            String trimmed = line.strip();
            boolean comment = trimmed.startsWith("*") || trimmed.startsWith("/*") || trimmed.startsWith("//");
            code.append(comment ? "" : line).append('\n');
        }
        return code.toString();
    }

    private static List<Path> javaSources() {
        try (Stream<Path> files = Files.walk(SOURCES)) {
            return files.filter(file -> file.toString().endsWith(".java")).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
