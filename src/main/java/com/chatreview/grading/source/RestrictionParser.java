package com.chatreview.grading.source;

import com.chatreview.grading.Place;
import com.chatreview.grading.source.RestrictionRules.AnyWord;
import com.chatreview.grading.source.RestrictionRules.Check;
import com.chatreview.grading.source.RestrictionRules.Import;
import com.chatreview.grading.source.RestrictionRules.Polarity;
import com.chatreview.grading.source.RestrictionRules.Recursion;
import com.chatreview.grading.source.RestrictionRules.Rule;
import com.chatreview.grading.source.RestrictionRules.Words;
import com.chatreview.grading.source.SourceFile.Token;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Reads the English sentences of a homework's restriction files as {@link RestrictionRules}, line by line.
 *
 * <p>Each non-blank line is a rule (a line of several sentences, or with {@code ;}, is one rule per part). A
 * rule is <em>forbidding</em> when it says so ({@code forbidden}, {@code must not}, {@code do not use},
 * {@code never}, {@code no}, {@code without}, {@code avoid}, {@code not allowed}...) and <em>requiring</em> when
 * it says {@code must use}, {@code must contain}, {@code required}...; a heading such as {@code Forbidden:} gives
 * its polarity to the bullet lines under it. What a rule is about comes from, in this order: terms in
 * backquotes or quotes; the list after a colon; the words after the verb ({@code do not use the built-in sum
 * function} is about {@code sum}). A rule about imports ({@code import}, {@code include}, {@code library},
 * {@code module}) becomes import checks; {@code loops}, {@code for loop} and {@code recursion} their own checks;
 * any other term that looks like code a check of its tokens. A line none of this fits is kept as a rule that
 * cannot be checked, to be listed as such, never guessed at.
 */
public final class RestrictionParser {

    private static final Pattern APOSTROPHE = Pattern.compile("(?<=\\p{L})’(?=\\p{L})");
    private static final Pattern LIST_MARKER = Pattern.compile("^(?:[-*+•]|\\d{1,3}[.)])\\s+");
    private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+.*|^[^`\"'“‘]*:\\s*$");
    private static final Pattern CLAUSE_END = Pattern.compile(";\\s*|(?<=[.!?])\\s+(?=[A-Z`\"“'])");
    private static final Pattern FORBIDDING = Pattern.compile(
            "(?i)\\b(?:forbidden|prohibited|banned|disallowed|must not|mustn't|may not|cannot|can't|do not|don't"
                    + "|does not|doesn't|should not|shouldn't|never|not allowed|not permitted|not to be used|avoid"
                    + "|without|no)\\b");
    private static final Pattern REQUIRING = Pattern.compile(
            "(?i)\\b(?:must use|must call|must contain|must include|must import|must define|must have|must be used"
                    + "|is required|are required|required|requires|has to use|have to use|needs to use|need to use"
                    + "|should use|must make use of)\\b");
    private static final Pattern ABOUT_IMPORTS = Pattern.compile(
            "(?i)(?:\\b(?:import|imports|importing|imported|include|includes|including|require|libraries|library"
                    + "|modules|module|packages|package|headers?|dependencies)\\b|#include)");
    private static final Pattern QUOTED = Pattern.compile(
            "`([^`]+)`|\"([^\"]+)\"|“([^”]+)”|‘([^’]+)’|(?<![\\p{L}\\p{N}])'([^'\\n]+?)'(?![\\p{L}\\p{N}])");
    private static final Pattern VERB_AFTER_MARKER = Pattern.compile(
            "(?i)^(?:to\\s+)?(?:the use of|make use of|use of|use|using|call|calling|import|importing|include"
                    + "|including|write|writing|have|having|contain|containing|define|defining|implement)\\b\\s*");
    private static final Pattern NEEDS_VERB =
            Pattern.compile("(?i)^(?:must not|mustn't|may not|cannot|can't|do not|don't|does not|doesn't|should not"
                    + "|shouldn't|never)$");
    private static final Pattern SEPARATORS = Pattern.compile("\\s*(?:,|/|\\bor\\b|\\band\\b|\\bnor\\b)\\s*");
    private static final Pattern FILLER_START = Pattern.compile(
            "(?i)^(?:the|a|an|any|all|some|other|built-?in|builtin|inbuilt|standard|python's|java's|c's|word|words"
                    + "|keyword|keywords|function|method|operator|statement)\\s+");
    private static final Pattern FILLER_END = Pattern.compile(
            "(?i)\\s+(?:functions?|methods?|keywords?|statements?|constructs?|operators?|calls?|expressions?"
                    + "|allowed|permitted|at all|anywhere|here|is|are|be|in (?:your|the|this) (?:code|solution|task"
                    + "|program|submission)|in code)$");
    private static final Pattern CODE_LIKE = Pattern.compile("[\\p{L}_$][\\p{L}\\p{N}_$]*|.*[^\\p{L}\\p{N}\\s].*");
    private static final Set<String> ANY_IMPORT = Set.of(
            "",
            "import",
            "imports",
            "libraries",
            "library",
            "modules",
            "module",
            "packages",
            "package",
            "anything",
            "headers",
            "header",
            "dependencies");
    private static final Pattern IMPORT_FILLER =
            Pattern.compile("^(?:imports?|importing|includes?|including)\\s+(?:of\\s+|from\\s+)?(?:the\\s+)?|^from\\s+"
                    + "|\\s+(?:modules?|librar(?:y|ies)|packages?|headers?)$");
    private static final Set<String> UNKNOWABLE_IMPORTS = Set.of(
            "external",
            "third-party",
            "third party",
            "non-standard",
            "nonstandard",
            "extra",
            "additional",
            "other",
            "outside",
            "foreign");
    private static final Set<String> LOOP_WORDS = Set.of("loop", "loops", "looping");
    private static final Set<String> RECURSION_WORDS = Set.of(
            "recursion",
            "recursive",
            "recursively",
            "recursive function",
            "recursive functions",
            "recursive call",
            "recursive calls");
    private static final Map<String, String> SINGLE_LOOPS = Map.of(
            "for loop",
            "for",
            "for loops",
            "for",
            "for-loop",
            "for",
            "for-loops",
            "for",
            "while loop",
            "while",
            "while loops",
            "while",
            "while-loop",
            "while",
            "while-loops",
            "while");
    private static final Set<String> RESTATING_WORDS = Set.of(
            "be",
            "is",
            "are",
            "used",
            "called",
            "imported",
            "included",
            "invoked",
            "appear",
            "appears",
            "present",
            "allowed",
            "permitted",
            "anywhere",
            "at",
            "all",
            "here",
            "in",
            "your",
            "the",
            "this",
            "code",
            "solution",
            "task",
            "program",
            "submission",
            "homework",
            "file",
            "files",
            "ever");
    private static final int MAX_TERM_TOKENS = 8;
    /** No rule is this long; the patterns need not look at longer lines (some would take quadratic time). */
    private static final int MAX_RULE_LINE = 500;

    private RestrictionParser() {}

    /** Reads the rules of restriction files, each given as its name and text. */
    public static RestrictionRules parse(List<SourceFile> files) {
        List<Rule> rules = new ArrayList<>();
        List<Place> uncheckable = new ArrayList<>();
        for (SourceFile file : files) {
            Section section = new Section(null, false);
            for (int number = 1; number <= file.lines().size(); number++) {
                String line = LIST_MARKER
                        .matcher(APOSTROPHE.matcher(file.line(number).strip()).replaceAll("'"))
                        .replaceFirst("");
                if (line.isBlank()) {
                    continue;
                }
                if (line.length() > MAX_RULE_LINE) {
                    uncheckable.add(new Place(file.name(), number, line.substring(0, 80) + "…"));
                    continue;
                }
                if (HEADING.matcher(line).matches()) {
                    section = new Section(
                            polarity(line), ABOUT_IMPORTS.matcher(line).find());
                    continue;
                }
                for (String clause : CLAUSE_END.split(line)) {
                    if (clause.isBlank()) {
                        continue;
                    }
                    Place source = new Place(file.name(), number, clause.strip());
                    Rule rule = rule(source, section);
                    if (rule == null) {
                        uncheckable.add(source);
                    } else {
                        rules.add(rule);
                    }
                }
            }
        }
        return new RestrictionRules(rules, uncheckable);
    }

    private static @Nullable Polarity polarity(String text) {
        Matcher forbidding = FORBIDDING.matcher(text);
        Matcher requiring = REQUIRING.matcher(text);
        boolean forbids = forbidding.find();
        boolean requires = requiring.find();
        if (forbids && requires) {
            return forbidding.start() <= requiring.start() ? Polarity.FORBIDDEN : Polarity.REQUIRED;
        }
        return forbids ? Polarity.FORBIDDEN : requires ? Polarity.REQUIRED : null;
    }

    /** What a heading ({@code Forbidden imports:}) says about the lines under it. */
    private record Section(@Nullable Polarity polarity, boolean imports) {}

    /** The rule a clause states, or {@code null} when it states nothing that can be checked. */
    private static @Nullable Rule rule(Place source, Section section) {
        String clause = source.text();
        Polarity polarity = polarity(clause);
        boolean inherited = polarity == null;
        if (inherited) {
            polarity = section.polarity();
        }
        if (polarity == null) {
            return null;
        }
        List<String> terms = terms(clause, polarity, inherited);
        if (terms == null) {
            return null;
        }
        boolean imports = ABOUT_IMPORTS.matcher(clause).find() || inherited && section.imports();
        List<Check> checks = new ArrayList<>();
        for (String term : terms) {
            Check check = imports ? importCheck(term) : check(term);
            if (check == null) {
                return null;
            }
            checks.add(check);
        }
        return checks.isEmpty() ? null : new Rule(source, polarity, List.copyOf(new LinkedHashSet<>(checks)));
    }

    /**
     * What a clause is about: quoted terms, else the list after a colon, else the words after the marker (or,
     * for {@code X is forbidden}, before it). {@code null} when the words cannot be told apart from prose.
     */
    private static @Nullable List<String> terms(String clause, Polarity polarity, boolean inherited) {
        Matcher marker = (polarity == Polarity.FORBIDDEN ? FORBIDDING : REQUIRING).matcher(clause);
        boolean marked = !inherited && marker.find();
        List<String> quotedBefore = new ArrayList<>();
        List<String> quotedAfter = new ArrayList<>();
        Matcher matcher = QUOTED.matcher(clause);
        while (matcher.find()) {
            for (int group = 1; group <= matcher.groupCount(); group++) {
                if (matcher.group(group) != null && !matcher.group(group).isBlank()) {
                    boolean before = marked && matcher.start() < marker.start();
                    (before ? quotedBefore : quotedAfter)
                            .add(matcher.group(group).strip());
                }
            }
        }
        if (!quotedAfter.isEmpty()) {
            // "Do not read or write files outside `main`" is about doing, not about `main`: after "do not" (and the
            // like) quoted names are what the rule forbids only when a verb of using comes first, or nothing does
            return aboutUsing(clause, marked ? marker : null) ? quotedAfter : null;
        }
        if (!quotedBefore.isEmpty() && saysNothingMore(clause.substring(marker.end()))) {
            return quotedBefore; // "`eval` is forbidden", "`sorted` must not be used"
        }
        // Otherwise a quoted name before the marker is the subject, not the object: in "`curve` must not change
        // its input" the rule is about what curve does, which the words after the verb (if any) say.
        if (inherited) {
            return split(clause);
        }
        int colon = clause.indexOf(':');
        if (colon >= 0 && !clause.substring(colon + 1).isBlank()) {
            return split(clause.substring(colon + 1));
        }
        if (!marked) {
            return null;
        }
        String after = clause.substring(marker.end()).strip();
        Matcher verb = VERB_AFTER_MARKER.matcher(after);
        boolean hasVerb = verb.find();
        if (hasVerb) {
            after = after.substring(verb.end());
        } else if (NEEDS_VERB.matcher(marker.group()).matches()) {
            return null; // "do not copy code": about doing, not about what the code contains
        }
        List<String> terms = split(after);
        if (terms.isEmpty()) {
            String before = VERB_AFTER_MARKER
                    .matcher(clause.substring(0, marker.start()).strip())
                    .replaceFirst("");
            terms = split(before);
        }
        return terms;
    }

    /** Whether what follows the marker is about using something (or names it at once), not about doing. */
    private static boolean aboutUsing(String clause, @Nullable Matcher marker) {
        if (marker == null || !NEEDS_VERB.matcher(marker.group()).matches()) {
            return true;
        }
        String after = clause.substring(marker.end()).strip();
        return after.isEmpty()
                || "`\"'“‘".indexOf(after.charAt(0)) >= 0
                || VERB_AFTER_MARKER.matcher(after).find();
    }

    /**
     * Whether the words after a marker, up to the next comma or parenthesis, only restate it: "be used", "is
     * allowed anywhere in your code".
     */
    private static boolean saysNothingMore(String tail) {
        String restated = tail.split("[,;:(—–]", 2)[0];
        for (String word : restated.toLowerCase(Locale.ROOT).split("[^\\p{L}']+")) {
            if (!word.isEmpty() && !RESTATING_WORDS.contains(word)) {
                return false;
            }
        }
        return true;
    }

    private static List<String> split(String text) {
        List<String> terms = new ArrayList<>();
        for (String part : SEPARATORS.split(text)) {
            String term = clean(part);
            if (!term.isEmpty()) {
                terms.add(term);
            }
        }
        return terms;
    }

    private static String clean(String part) {
        String term = part.strip();
        String before;
        do {
            before = term;
            term = term.replaceAll("^[\\s.,;:!?]+|[\\s.,;:!?]+$", "");
            if (term.endsWith("()")) {
                term = term.substring(0, term.length() - 2);
            }
            term = FILLER_START.matcher(term).replaceFirst("");
            term = FILLER_END.matcher(term).replaceFirst("");
        } while (!term.equals(before));
        return term;
    }

    private static @Nullable Check importCheck(String term) {
        String module = IMPORT_FILLER
                .matcher(term.toLowerCase(Locale.ROOT))
                .replaceAll("")
                .replaceAll("^[<\"']|[>\"']$", "");
        if (UNKNOWABLE_IMPORTS.contains(module)) {
            return null; // which libraries are external or standard is not written in the code
        }
        if (ANY_IMPORT.contains(module)) {
            return new Import(null);
        }
        return module.matches("[\\w.:/*-]+(?:\\.h|\\.hpp)?") ? new Import(module) : null;
    }

    private static @Nullable Check check(String term) {
        String lower = term.toLowerCase(Locale.ROOT);
        if (LOOP_WORDS.contains(lower)) {
            return new AnyWord(List.of("for", "while"), "loops");
        }
        if (SINGLE_LOOPS.containsKey(lower)) {
            String keyword = SINGLE_LOOPS.get(lower);
            return new Words(List.of(keyword), keyword);
        }
        if (RECURSION_WORDS.contains(lower)) {
            return new Recursion();
        }
        if (!CODE_LIKE.matcher(term).matches()) {
            return null;
        }
        String called = term.endsWith("()") ? term.substring(0, term.length() - 2) : term;
        List<String> tokens = SourceFile.read("term", null, called).tokens().stream()
                .map(Token::text)
                .toList();
        return tokens.isEmpty() || tokens.size() > MAX_TERM_TOKENS ? null : new Words(tokens, term);
    }
}
