package com.chatreview.moderation;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.jspecify.annotations.Nullable;

/**
 * The screener that runs in the service's own JVM (docs/safety.md): rules and phrase lists per language, in
 * {@code moderation/<language>.rules}. A text is normalized once (lower case, accents and stretched letters dropped,
 * apostrophes and spaces made one kind); then, per category, what its masks match is blanked out (the benign
 * look-alikes: "kill the process", "this homework is killing me", a number in a regular-expression exercise) and its
 * signals are sought in what is left. Every language's rules apply to every text: students mix languages, and it
 * costs less than guessing the language. A rule runs only when the text holds one of the literal texts its pattern
 * starts with ({@link LiteralPrefixes}), found in one pass over the text: a message costs the few rules it touches.
 */
public final class OfflineScreener implements SafetyScreener {

    /** The languages whose rules are shipped. */
    public static final List<String> LANGUAGES = List.of("en", "de", "fr", "es");

    private static final Pattern MARKS = Pattern.compile("\\p{M}+");

    private final List<Rule> rules;
    private final Map<Integer, List<Trigger>> triggersByStart;
    private final BitSet ungated;
    private final @Nullable LearnedModel model;

    private OfflineScreener(List<Rule> rules, @Nullable LearnedModel model) {
        this.rules = List.copyOf(rules);
        this.model = model;
        Map<String, BitSet> rulesByLiteral = new HashMap<>();
        BitSet always = new BitSet();
        for (int index = 0; index < rules.size(); index++) {
            Set<String> prefixes = LiteralPrefixes.of(rules.get(index).pattern().pattern());
            if (prefixes == null) {
                always.set(index);
                continue;
            }
            for (String prefix : prefixes) {
                rulesByLiteral.computeIfAbsent(prefix, p -> new BitSet()).set(index);
            }
        }
        Map<Integer, List<Trigger>> byStart = new HashMap<>();
        rulesByLiteral.forEach(
                (literal, indexes) -> byStart.computeIfAbsent(start(literal, 0), key -> new ArrayList<>())
                        .add(new Trigger(literal, indexes)));
        this.triggersByStart = byStart;
        this.ungated = always;
    }

    /** The screener with the shipped rules of every language and the shipped learned model. */
    public static OfflineScreener standard() {
        return new OfflineScreener(rulesOf(LANGUAGES), LearnedModel.shipped());
    }

    /** The shipped rules with another learned model, or none (for bench/moderation, which measures either). */
    public static OfflineScreener withModel(@Nullable LearnedModel model) {
        return new OfflineScreener(rulesOf(LANGUAGES), model);
    }

    private static List<Rule> rulesOf(List<String> languages) {
        List<Rule> rules = new ArrayList<>();
        for (String language : languages) {
            String resource = "moderation/" + language + ".rules";
            try (InputStream in = OfflineScreener.class.getClassLoader().getResourceAsStream(resource)) {
                Objects.requireNonNull(in, resource);
                rules.addAll(read(resource, new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return rules;
    }

    @Override
    public Screening screen(String text) {
        String normalized = normalized(text);
        Set<SafetyCategory> found = byRules(normalized, triggered(normalized));
        if (model != null) {
            found.addAll(model.categoriesOfNormalized(normalized));
        }
        return Screening.of(found, "offline");
    }

    /** For the tests: what the rules find when each runs over the whole text, whatever the text holds. */
    Set<SafetyCategory> byRulesWithoutTriggers(String text) {
        BitSet all = new BitSet();
        all.set(0, rules.size());
        return byRules(normalized(text), new Candidates(all, Map.of()));
    }

    /** For the tests: what the rules find, each run where its literal prefixes stand. */
    Set<SafetyCategory> byRules(String text) {
        String normalized = normalized(text);
        return byRules(normalized, triggered(normalized));
    }

    /**
     * Where each rule may match: the rules that may, and for each gated one the positions its prefixes start at (a
     * match can start nowhere else); a live rule without positions is sought in the whole text.
     */
    private record Candidates(BitSet live, Map<Integer, List<Integer>> starts) {

        /** Runs the pattern where it may match, calling {@code each} with every match's start and end. */
        void matches(int index, Pattern pattern, String text, boolean all, MatchFound each) {
            Matcher matcher = pattern.matcher(text);
            List<Integer> at = starts.get(index);
            if (at == null) {
                while (matcher.find()) {
                    each.found(matcher.start(), matcher.end());
                    if (!all) {
                        return;
                    }
                }
                return;
            }
            matcher.useTransparentBounds(true).useAnchoringBounds(false);
            for (int start : at) {
                if (matcher.region(start, text.length()).lookingAt()) {
                    each.found(start, matcher.end());
                    if (!all) {
                        return;
                    }
                }
            }
        }
    }

    private interface MatchFound {
        void found(int start, int end);
    }

    /** The live rules run: each category's masks first, then its signals on what the masks left. */
    private Set<SafetyCategory> byRules(String normalized, Candidates candidates) {
        BitSet live = candidates.live();
        Map<SafetyCategory, StringBuilder> masked = new EnumMap<>(SafetyCategory.class);
        for (int index = live.nextSetBit(0); index >= 0; index = live.nextSetBit(index + 1)) {
            Rule rule = rules.get(index);
            if (rule.mask()) {
                StringBuilder text = masked.computeIfAbsent(rule.category(), c -> new StringBuilder(normalized));
                String before = text.toString();
                candidates.matches(index, rule.pattern(), before, true, (start, end) -> {
                    for (int i = start; i < end; i++) {
                        text.setCharAt(i, ' ');
                    }
                });
            }
        }
        Set<SafetyCategory> found = EnumSet.noneOf(SafetyCategory.class);
        Map<SafetyCategory, String> seen = new EnumMap<>(SafetyCategory.class);
        masked.forEach((category, text) -> seen.put(category, text.toString()));
        for (int index = live.nextSetBit(0); index >= 0; index = live.nextSetBit(index + 1)) {
            Rule rule = rules.get(index);
            if (!rule.mask() && !found.contains(rule.category())) {
                boolean[] matched = {false};
                candidates.matches(
                        index,
                        rule.pattern(),
                        seen.getOrDefault(rule.category(), normalized),
                        false,
                        (start, end) -> matched[0] = true);
                if (matched[0]) {
                    found.add(rule.category());
                }
            }
        }
        return found;
    }

    /** The rules whose pattern may match the text, and where: those it holds a prefix of, and the ungated. */
    private Candidates triggered(String text) {
        BitSet live = (BitSet) ungated.clone();
        Map<Integer, List<Integer>> starts = new HashMap<>();
        for (int i = 0; i + 1 < text.length(); i++) {
            List<Trigger> found = triggersByStart.get(start(text, i));
            if (found == null) {
                continue;
            }
            for (Trigger trigger : found) {
                if (!text.startsWith(trigger.literal(), i)) {
                    continue;
                }
                live.or(trigger.rules());
                BitSet rulesOfIt = trigger.rules();
                for (int index = rulesOfIt.nextSetBit(0); index >= 0; index = rulesOfIt.nextSetBit(index + 1)) {
                    List<Integer> at = starts.computeIfAbsent(index, k -> new ArrayList<>());
                    if (at.isEmpty() || at.getLast() != i) {
                        at.add(i);
                    }
                }
            }
        }
        return new Candidates(live, starts);
    }

    private static int start(String text, int at) {
        return text.charAt(at) << 16 | text.charAt(at + 1);
    }

    /** The text as the rules read it: lower case, without accents, letters stretched past two shortened to two. */
    static String normalized(String text) {
        String lower = text.toLowerCase(Locale.ROOT);
        if (!isAscii(lower)) {
            lower = MARKS.matcher(Normalizer.normalize(lower.replace("\u00df", "ss"), Normalizer.Form.NFD))
                    .replaceAll("");
        }
        StringBuilder normalized = new StringBuilder(lower.length() + 2).append(' ');
        for (int i = 0; i < lower.length(); i++) {
            char c = lower.charAt(i);
            if (c == '\u2019' || c == '\u2018' || c == '`' || c == '\u00b4') {
                c = '\'';
            }
            if (Character.isWhitespace(c)) {
                if (normalized.charAt(normalized.length() - 1) != ' ') {
                    normalized.append(' ');
                }
                continue;
            }
            int length = normalized.length();
            if (Character.isLetter(c)
                    && normalized.charAt(length - 1) == c
                    && length > 1
                    && normalized.charAt(length - 2) == c) {
                continue;
            }
            normalized.append(c);
        }
        if (normalized.charAt(normalized.length() - 1) != ' ') {
            normalized.append(' ');
        }
        return normalized.toString();
    }

    private static boolean isAscii(String text) {
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) > 127) {
                return false;
            }
        }
        return true;
    }

    /** A rule of a category: a signal of it, or a mask of a benign look-alike. */
    private record Rule(SafetyCategory category, boolean mask, Pattern pattern) {}

    /** A literal text whose presence lets these rules run. */
    private record Trigger(String literal, BitSet rules) {}

    private static List<Rule> read(String resource, BufferedReader lines) throws IOException {
        List<Rule> rules = new ArrayList<>();
        String line;
        int number = 0;
        while ((line = lines.readLine()) != null) {
            number++;
            String rule = line.strip();
            if (rule.isEmpty() || rule.startsWith("#")) {
                continue;
            }
            String[] parts = rule.split("\\s+", 3);
            String where = resource + ", line " + number;
            if (parts.length < 3) {
                throw new IllegalStateException(where + ": a rule is <category> <signal|mask> <pattern>");
            }
            SafetyCategory category = SafetyCategory.of(parts[0])
                    .orElseThrow(() -> new IllegalStateException(where + ": no category " + parts[0]));
            boolean mask = switch (parts[1]) {
                case "signal" -> false;
                case "mask" -> true;
                default -> throw new IllegalStateException(where + ": signal or mask, not " + parts[1]);
            };
            rules.add(new Rule(category, mask, compiled(parts[2], where)));
        }
        return rules;
    }

    private static Pattern compiled(String pattern, String where) {
        try {
            return Pattern.compile(pattern);
        } catch (PatternSyntaxException e) {
            throw new IllegalStateException(where + ": " + e.getMessage(), e);
        }
    }
}
