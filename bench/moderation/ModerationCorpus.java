import com.chatreview.moderation.LearnedModel;
import com.chatreview.moderation.OfflineScreener;
import com.chatreview.moderation.SafetyCategory;
import com.chatreview.moderation.Screening;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Precision and recall of the offline safety screener on a labelled corpus (bench/moderation/run.sh). A line of a
 * corpus: language, label (a category, or benign:<category it looks like>), text. A category's precision counts every
 * message flagged with it; its recall, the messages labelled with it that were flagged with it. "Flagged at all"
 * counts a harmful message flagged with any category: the school hears of it either way.
 */
public class ModerationCorpus {

    record Item(String language, Optional<SafetyCategory> harm, String label, String text) {}

    public static void main(String[] args) throws Exception {
        OfflineScreener screener = screener();
        boolean misses = "1".equals(System.getenv("MISSES"));
        if (args[0].equals("plain")) {
            plain(screener, Path.of(args[1]));
            return;
        }
        for (String file : args) {
            List<Item> items = read(Path.of(file));
            List<Screening> screened = items.stream().map(item -> screener.screen(item.text())).toList();
            System.out.printf("%n== %s: %d messages, %d harmful%n", file, items.size(),
                    items.stream().filter(item -> item.harm().isPresent()).count());
            System.out.printf("%-16s %-5s %9s %7s %4s %4s %4s%n", "category", "lang", "precision", "recall", "tp", "fp",
                    "fn");
            for (SafetyCategory category : SafetyCategory.values()) {
                for (String language : List.of("all", "en", "de", "fr", "es")) {
                    int tp = 0, fp = 0, fn = 0;
                    for (int i = 0; i < items.size(); i++) {
                        Item item = items.get(i);
                        if (!language.equals("all") && !item.language().equals(language)) {
                            continue;
                        }
                        boolean labelled = item.harm().equals(Optional.of(category));
                        boolean flagged = screened.get(i).categories().contains(category);
                        tp += labelled && flagged ? 1 : 0;
                        fp += !labelled && flagged ? 1 : 0;
                        fn += labelled && !flagged ? 1 : 0;
                    }
                    System.out.printf("%-16s %-5s %9s %7s %4d %4d %4d%n", language.equals("all") ? category.value() : "",
                            language, ratio(tp, tp + fp), ratio(tp, tp + fn), tp, fp, fn);
                }
            }
            for (String language : List.of("all", "en", "de", "fr", "es")) {
                int flaggedHarmful = 0, harmful = 0, flaggedBenign = 0, benign = 0;
                for (int i = 0; i < items.size(); i++) {
                    Item item = items.get(i);
                    if (!language.equals("all") && !item.language().equals(language)) {
                        continue;
                    }
                    boolean flagged = screened.get(i).flagged();
                    if (item.harm().isPresent()) {
                        harmful++;
                        flaggedHarmful += flagged ? 1 : 0;
                    } else {
                        benign++;
                        flaggedBenign += flagged ? 1 : 0;
                    }
                }
                System.out.printf("any category, %-3s: precision %s, harmful flagged at all %d/%d (%s), benign flagged %d/%d%n",
                        language, ratio(flaggedHarmful, flaggedHarmful + flaggedBenign), flaggedHarmful, harmful,
                        ratio(flaggedHarmful, harmful), flaggedBenign, benign);
            }
            if (misses) {
                for (int i = 0; i < items.size(); i++) {
                    Item item = items.get(i);
                    var got = screened.get(i).categories();
                    boolean right = item.harm().map(harm -> got.contains(harm)).orElse(got.isEmpty());
                    boolean extra = item.harm().isPresent() && got.size() > 1;
                    if (!right || extra) {
                        System.out.printf("MISS %s %-24s got %-28s %s%n", item.language(), item.label(), got, item.text());
                    }
                }
            }
            cost(screener, items);
        }
    }

    /** CPU time of the screening thread per message, after a warm-up, over the corpus many times in random order. */
    static void cost(OfflineScreener screener, List<Item> items) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        List<String> texts = new ArrayList<>(items.stream().map(Item::text).toList());
        long sink = 0;
        for (int round = 0; round < 50; round++) {
            java.util.Collections.shuffle(texts);
            for (String text : texts) {
                sink += screener.screen(text).categories().size();
            }
        }
        int rounds = 100;
        long cpu = threads.getCurrentThreadCpuTime();
        long wall = System.nanoTime();
        for (int round = 0; round < rounds; round++) {
            java.util.Collections.shuffle(texts);
            for (String text : texts) {
                sink += screener.screen(text).categories().size();
            }
        }
        cpu = threads.getCurrentThreadCpuTime() - cpu;
        wall = System.nanoTime() - wall;
        long screenedCount = (long) rounds * texts.size();
        double meanChars = texts.stream().mapToInt(String::length).average().orElse(0);
        long longest = texts.stream().mapToInt(String::length).max().orElse(0);
        String page = String.join(" ", texts).substring(0, 4_000);
        long pageCpu = threads.getCurrentThreadCpuTime();
        for (int i = 0; i < 1_000; i++) {
            sink += screener.screen(page).categories().size();
        }
        pageCpu = threads.getCurrentThreadCpuTime() - pageCpu;
        System.out.printf(Locale.ROOT,
                "cost: %.1f µs CPU per message (%.1f µs wall), messages of %.0f characters on average (at most %d); "
                        + "a 4,000-character message %.1f µs CPU [%d]%n",
                cpu / 1e3 / screenedCount, wall / 1e3 / screenedCount, meanChars, longest, pageCpu / 1e3 / 1_000,
                sink % 10);
    }

    /**
     * Unlabelled writing of students, all of it harmless (Mohler et al.'s answers to an introductory computer-science
     * course: a directory of files whose lines are "<question id> <answer>"): how many are flagged, and which.
     */
    static void plain(OfflineScreener screener, Path directory) throws Exception {
        List<String> texts = new ArrayList<>();
        try (var files = Files.list(directory)) {
            for (Path file : files.sorted().toList()) {
                for (String line : Files.readAllLines(file, java.nio.charset.StandardCharsets.ISO_8859_1)) {
                    String text = line.replaceFirst("^\\S+\\s+", "").replace("<br>", " ").strip();
                    if (!text.isEmpty()) {
                        texts.add(text);
                    }
                }
            }
        }
        int flagged = 0;
        for (String text : texts) {
            Screening screening = screener.screen(text);
            if (screening.flagged()) {
                flagged++;
                System.out.printf("FLAGGED %s %s%n", screening.categories(), text);
            }
        }
        System.out.printf("plain: %d of %d harmless answers flagged (%s)%n", flagged, texts.size(),
                ratio(flagged, texts.size()));
        cost(screener, texts.stream().map(text -> new Item("en", Optional.empty(), "benign", text)).toList());
    }

    static String ratio(int part, int whole) {
        return whole == 0 ? "-" : String.format(Locale.ROOT, "%.3f", (double) part / whole);
    }

    /**
     * The shipped screener; with RULES_ONLY=1 its rules alone, with MODEL=FILE its rules and that learned model (one
     * TrainScreener.java wrote).
     */
    static OfflineScreener screener() throws Exception {
        if ("1".equals(System.getenv("RULES_ONLY"))) {
            return OfflineScreener.withModel(null);
        }
        String model = System.getenv("MODEL");
        if (model != null) {
            try (var in = new java.io.BufferedInputStream(Files.newInputStream(Path.of(model)))) {
                return OfflineScreener.withModel(LearnedModel.read(in));
            }
        }
        return OfflineScreener.standard();
    }

    static List<Item> read(Path file) throws Exception {
        List<Item> items = new ArrayList<>();
        List<String> lines = Files.readAllLines(file);
        for (String line : lines.subList(1, lines.size())) {
            if (line.isBlank()) {
                continue;
            }
            String[] parts = line.split("\t", 3);
            String label = parts[1];
            Optional<SafetyCategory> harm = label.startsWith("benign")
                    ? Optional.empty()
                    : Optional.of(SafetyCategory.of(label).orElseThrow(() -> new IllegalArgumentException(label)));
            items.add(new Item(parts[0], harm, label, parts[2]));
        }
        return items;
    }
}
