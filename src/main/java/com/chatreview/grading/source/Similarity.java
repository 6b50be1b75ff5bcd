package com.chatreview.grading.source;

import com.chatreview.grading.Place;
import com.chatreview.grading.source.SourceFile.Kind;
import com.chatreview.grading.source.SourceFile.Token;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * How close the student's files are to the reference solution: the Dice coefficient over token 3-grams.
 *
 * <p>Both sides are cut into tokens (names, numbers, strings, operators; whitespace and comments dropped, case
 * ignored). A name or literal that only one side uses becomes the placeholder {@code _}: a student who calls
 * the numerator {@code top} where the reference says {@code numerator} wrote the same code. Every run of three
 * consecutive tokens of a file is a 3-gram, and the similarity is {@code 2·|S ∩ R| / (|S| + |R|)} over the
 * multisets of 3-grams of the submission {@code S} and the reference {@code R}: 100% for the same code up to
 * its names, 0% for nothing in common; extra code lowers it as missing code does. Three tokens are long enough
 * to capture a step ({@code return _ //}, {@code gcd ( _}) and short enough that one changed token costs only
 * the three 3-grams it is part of.
 *
 * <p>Since placeholders make any two programs of a language look alike in part, the reference's
 * <em>particular names</em> are reported beside it: its names of three characters or more that are not a
 * keyword or common built-in of a major language ({@code add_fractions}, {@code gcd}, {@code numerator}). A
 * submission that uses none of them is about something else, whatever its shape.
 *
 * <p>Time is linear in the tokens: 3-grams are counted in hash maps.
 */
public final class Similarity {

    static final int N = 3;
    static final String PLACEHOLDER = "_";
    /** A reference line has a counterpart when at least this share of its 3-grams occur in the submission. */
    private static final double COUNTERPART = 0.5;

    private static final Pattern WORDY = Pattern.compile("[\\p{L}\\p{N}]");
    /** Keywords and everyday built-ins of Python, Java, C, C++, C#, JavaScript, Go, Rust, Kotlin: not particular. */
    static final Set<String> COMMON_NAMES = Set.of(
            "and",
            "as",
            "assert",
            "async",
            "await",
            "break",
            "class",
            "continue",
            "def",
            "del",
            "elif",
            "else",
            "except",
            "false",
            "finally",
            "for",
            "from",
            "global",
            "if",
            "import",
            "in",
            "is",
            "lambda",
            "none",
            "nonlocal",
            "not",
            "or",
            "pass",
            "raise",
            "return",
            "true",
            "try",
            "while",
            "with",
            "yield",
            "print",
            "input",
            "int",
            "str",
            "float",
            "bool",
            "len",
            "range",
            "list",
            "dict",
            "set",
            "tuple",
            "map",
            "filter",
            "zip",
            "enumerate",
            "sorted",
            "open",
            "self",
            "split",
            "strip",
            "join",
            "append",
            "format",
            "__name__",
            "__main__",
            "__init__",
            "main",
            "abstract",
            "boolean",
            "byte",
            "case",
            "catch",
            "char",
            "const",
            "default",
            "do",
            "double",
            "enum",
            "extends",
            "final",
            "implements",
            "instanceof",
            "interface",
            "long",
            "native",
            "new",
            "null",
            "package",
            "private",
            "protected",
            "public",
            "short",
            "static",
            "super",
            "switch",
            "synchronized",
            "this",
            "throw",
            "throws",
            "transient",
            "void",
            "volatile",
            "var",
            "string",
            "system",
            "out",
            "println",
            "printf",
            "scanf",
            "args",
            "length",
            "java",
            "util",
            "lang",
            "include",
            "define",
            "struct",
            "typedef",
            "unsigned",
            "signed",
            "sizeof",
            "auto",
            "std",
            "cout",
            "cin",
            "endl",
            "using",
            "namespace",
            "vector",
            "stdio",
            "stdlib",
            "iostream",
            "let",
            "function",
            "console",
            "log",
            "undefined",
            "typeof",
            "export",
            "require",
            "module",
            "exports",
            "func",
            "fmt",
            "nil",
            "fn",
            "mut",
            "impl",
            "pub",
            "use",
            "mod",
            "match",
            "loop",
            "val",
            "fun",
            "object",
            "when",
            "override",
            "readline",
            "scanner",
            "next",
            "nextint",
            "parseint",
            "math",
            "result",
            "value",
            "values",
            "get",
            "add",
            "size",
            "push",
            "pop",
            "keys",
            "items",
            "the",
            "text",
            "data",
            "file",
            "line",
            "lines",
            "name",
            "count");

    /** The similarity of one student file to the reference file it is closest to. */
    public record FileScore(
            String file, int percent, @Nullable String closestReference, boolean usesParticularNames) {}

    /**
     * @param percent the overall similarity, rounded to a whole percent: of the student files that together come
     *     closest to the reference
     * @param counted those files, in upload order
     * @param particular the reference's particular names, in the order they first appear
     * @param particularUsed those of them the submission uses
     * @param unmatched reference lines with no counterpart in the submission, in file and line order
     * @param referenceLines how many reference lines were compared
     */
    public record Result(
            int percent,
            List<String> counted,
            List<FileScore> files,
            List<String> particular,
            List<String> particularUsed,
            List<Place> unmatched,
            int referenceLines) {

        /** Whether the submission is about something else: the reference has particular names, it uses none. */
        public boolean unrelated() {
            return !particular.isEmpty() && particularUsed.isEmpty();
        }
    }

    private record Gram(int first, int second, int third) {}

    /** A 3-gram at the line of its first token. */
    private record Located(Gram gram, int line) {}

    private Similarity() {}

    public static Result compare(List<SourceFile> submission, List<SourceFile> reference) {
        Set<String> studentWords = words(submission);
        Set<String> shared = new HashSet<>(words(reference));
        shared.retainAll(studentWords);
        Map<String, Integer> ids = new HashMap<>();
        List<List<Located>> studentGrams =
                submission.stream().map(file -> grams(file, shared, ids)).toList();
        List<List<Located>> referenceGrams =
                reference.stream().map(file -> grams(file, shared, ids)).toList();
        Map<Gram, Integer> student = counts(studentGrams);
        List<Map<Gram, Integer>> referenceFiles =
                referenceGrams.stream().map(grams -> counts(List.of(grams))).toList();
        Map<Gram, Integer> whole = counts(referenceGrams);
        Closest closest = closestFiles(studentGrams, whole);
        List<String> particular = particularNames(reference);
        Set<String> studentNames = new HashSet<>();
        List<FileScore> files = new ArrayList<>();
        for (int i = 0; i < submission.size(); i++) {
            Set<String> own = namesUsedAsCode(submission.get(i));
            studentNames.addAll(own);
            files.add(closest(
                    submission.get(i).name(),
                    counts(List.of(studentGrams.get(i))),
                    reference,
                    referenceFiles,
                    particular.stream().anyMatch(own::contains)));
        }
        List<Place> unmatched = new ArrayList<>();
        int compared = 0;
        for (int i = 0; i < reference.size(); i++) {
            compared += unmatchedLines(reference.get(i), referenceGrams.get(i), student, unmatched);
        }
        List<String> used = particular.stream().filter(studentNames::contains).toList();
        List<String> counted = closest.files().stream()
                .map(index -> submission.get(index).name())
                .toList();
        return new Result(percent(closest.dice()), counted, files, particular, used, unmatched, compared);
    }

    private record Closest(List<Integer> files, double dice) {}

    /**
     * The student files that together come closest to the reference: the files in order of their own similarity
     * to it, each kept only when adding it raises the similarity. A correct solution handed in with notes or
     * tests of its own is as close as the solution alone; files that add nothing the reference has do not dilute
     * it, and adding more copies never raises it.
     */
    private static Closest closestFiles(List<List<Located>> studentFiles, Map<Gram, Integer> reference) {
        List<Map<Gram, Integer>> files =
                studentFiles.stream().map(grams -> counts(List.of(grams))).toList();
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < files.size(); i++) {
            order.add(i);
        }
        order.sort(Comparator.comparingDouble((Integer i) -> dice(files.get(i), reference))
                .reversed()
                .thenComparingInt(i -> i));
        List<Integer> kept = new ArrayList<>();
        Map<Gram, Integer> together = new HashMap<>();
        double best = 0;
        for (int i : order) {
            Map<Gram, Integer> candidate = new HashMap<>(together);
            files.get(i).forEach((gram, count) -> candidate.merge(gram, count, Integer::sum));
            double score = dice(candidate, reference);
            if (score > best) {
                best = score;
                together = candidate;
                kept.add(i);
            }
        }
        kept.sort(Comparator.naturalOrder());
        return new Closest(kept, best);
    }

    static int percent(double share) {
        return (int) Math.round(share * 100);
    }

    /** {@code 2·|A ∩ B| / (|A| + |B|)} over multisets; 0 when both are empty. */
    private static double dice(Map<Gram, Integer> a, Map<Gram, Integer> b) {
        long sizes = total(a) + total(b);
        if (sizes == 0) {
            return 0;
        }
        Map<Gram, Integer> smaller = a.size() <= b.size() ? a : b;
        Map<Gram, Integer> larger = smaller == a ? b : a;
        long common = 0;
        for (Map.Entry<Gram, Integer> entry : smaller.entrySet()) {
            common += Math.min(entry.getValue(), larger.getOrDefault(entry.getKey(), 0));
        }
        return 2.0 * common / sizes;
    }

    private static FileScore closest(
            String name,
            Map<Gram, Integer> file,
            List<SourceFile> reference,
            List<Map<Gram, Integer>> referenceFiles,
            boolean particular) {
        double best = 0;
        String closest = reference.isEmpty() ? null : reference.getFirst().name();
        for (int i = 0; i < reference.size(); i++) {
            double score = dice(file, referenceFiles.get(i));
            if (score > best) {
                best = score;
                closest = reference.get(i).name();
            }
        }
        return new FileScore(name, percent(best), closest, particular);
    }

    /**
     * Adds the lines of a reference file without a counterpart (lines with a letter or digit, fewer than half of
     * whose 3-grams occur in the submission); returns how many of its lines were compared.
     */
    private static int unmatchedLines(
            SourceFile file, List<Located> grams, Map<Gram, Integer> student, List<Place> unmatched) {
        Map<Integer, int[]> lines = new TreeMap<>();
        for (Located located : grams) {
            if (!WORDY.matcher(file.line(located.line())).find()) {
                continue;
            }
            int[] found = lines.computeIfAbsent(located.line(), line -> new int[2]);
            found[0]++;
            if (student.containsKey(located.gram())) {
                found[1]++;
            }
        }
        lines.forEach((line, found) -> {
            if (found[1] < found[0] * COUNTERPART) {
                unmatched.add(new Place(file.name(), line, file.line(line)));
            }
        });
        return lines.size();
    }

    /** The reference's names that say what it is about, in the order they first appear. */
    static List<String> particularNames(List<SourceFile> reference) {
        Set<String> names = new LinkedHashSet<>();
        for (SourceFile file : reference) {
            for (Token token : file.tokens()) {
                if (token.kind() == Kind.WORD && token.text().length() >= 3 && !COMMON_NAMES.contains(token.text())) {
                    names.add(token.text());
                }
            }
        }
        return List.copyOf(names);
    }

    /**
     * The names a file uses as code. In a code file that is every name; in prose (an essay, a README) a word is
     * taken for a name only where it looks like one: with an underscore, in backquotes, before {@code (},
     * {@code [} or {@code =}, or after {@code def}, {@code class} or {@code function}. Otherwise an essay
     * that says "first" or "best" would use the particular names of a reference that has them.
     */
    private static Set<String> namesUsedAsCode(SourceFile file) {
        Set<String> names = new HashSet<>();
        List<Token> tokens = file.tokens();
        for (int i = 0; i < tokens.size(); i++) {
            Token token = tokens.get(i);
            if (token.kind() != Kind.WORD) {
                continue;
            }
            if (file.syntax() != SourceFile.Syntax.PROSE || token.text().contains("_")) {
                names.add(token.text());
                continue;
            }
            String previous = i > 0 ? tokens.get(i - 1).text() : "";
            String next = i + 1 < tokens.size() ? tokens.get(i + 1).text() : "";
            if (CODE_BEFORE_NAME.contains(previous) || CODE_AFTER_NAME.contains(next)) {
                names.add(token.text());
            }
        }
        return names;
    }

    private static final Set<String> CODE_BEFORE_NAME = Set.of("`", "def", "class", "function", "fn", "func");
    private static final Set<String> CODE_AFTER_NAME = Set.of("(", "[", "=", "`");

    private static Set<String> words(List<SourceFile> files) {
        Set<String> words = new HashSet<>();
        for (SourceFile file : files) {
            for (Token token : file.tokens()) {
                if (token.wordLike()) {
                    words.add(token.text());
                }
            }
        }
        return words;
    }

    /** Every 3-gram of a file, names only one side uses written as the placeholder. */
    private static List<Located> grams(SourceFile file, Set<String> shared, Map<String, Integer> ids) {
        List<Token> tokens = file.tokens();
        int[] normalised = new int[tokens.size()];
        for (int i = 0; i < tokens.size(); i++) {
            Token token = tokens.get(i);
            boolean placeholder = token.wordLike() && !shared.contains(token.text());
            normalised[i] = ids.computeIfAbsent(placeholder ? PLACEHOLDER : token.text(), text -> ids.size());
        }
        List<Located> grams = new ArrayList<>();
        for (int i = 0; i + N <= tokens.size(); i++) {
            grams.add(new Located(
                    new Gram(normalised[i], normalised[i + 1], normalised[i + 2]),
                    tokens.get(i).line()));
        }
        return grams;
    }

    private static Map<Gram, Integer> counts(List<List<Located>> files) {
        Map<Gram, Integer> counts = new HashMap<>();
        for (List<Located> grams : files) {
            for (Located located : grams) {
                counts.merge(located.gram(), 1, Integer::sum);
            }
        }
        return counts;
    }

    private static long total(Map<Gram, Integer> counts) {
        long total = 0;
        for (int count : counts.values()) {
            total += count;
        }
        return total;
    }
}
