package com.chatreview.grading;

import com.chatreview.grading.SourceFile.Kind;
import com.chatreview.grading.SourceFile.Token;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The rules of a homework's restriction files, read line by line, and where a submission breaks them.
 *
 * <p>Each non-blank line is a rule (a line of several sentences, or with {@code ;}, is one rule per part). A
 * rule is <em>forbidding</em> when it says so ({@code forbidden}, {@code must not}, {@code do not use},
 * {@code never}, {@code no}, {@code without}, {@code avoid}, {@code not allowed}...) and <em>requiring</em> when
 * it says {@code must use}, {@code must contain}, {@code required}...; a heading such as {@code Forbidden:} gives
 * its polarity to the bullet lines under it. What a rule is about comes from, in this order: terms in
 * backquotes or quotes; the list after a colon; the words after the verb ({@code do not use the built-in sum
 * function} is about {@code sum}). A rule about imports ({@code import}, {@code include}, {@code library},
 * {@code module}) is matched against the import statements of common languages; {@code loops} means
 * {@code for} and {@code while}; {@code recursion} means a function that calls itself; any other term is
 * matched as whole tokens of the code, outside comments and string literals, ignoring case. A line none of
 * this fits is kept as a rule that cannot be checked, to be listed as such, never guessed at.
 */
final class RestrictionRules {

    enum Polarity {
        FORBIDDEN,
        REQUIRED
    }

    /** A rule that can be checked: a forbidding rule is broken by any hit of any check; a requiring one needs all. */
    record Rule(Place source, Polarity polarity, List<Check> checks) {}

    /**
     * What checking a rule found.
     *
     * @param hits for a forbidding rule, where the submission breaks it
     * @param missing for a requiring rule, what no file of the submission has
     */
    record Outcome(Rule rule, List<Place> hits, List<Check> missing) {

        boolean broken() {
            return !hits.isEmpty() || !missing.isEmpty();
        }
    }

    /** One thing a rule looks for in a file. */
    sealed interface Check {

        /** What is looked for, as the review names it. */
        String describe();

        List<Place> find(SourceFile file);
    }

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

    private final List<Rule> rules;
    private final List<Place> uncheckable;

    private RestrictionRules(List<Rule> rules, List<Place> uncheckable) {
        this.rules = List.copyOf(rules);
        this.uncheckable = List.copyOf(uncheckable);
    }

    /** Reads the rules of restriction files, each given as its name and text. */
    static RestrictionRules parse(List<SourceFile> files) {
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

    List<Rule> rules() {
        return rules;
    }

    /** Lines read as rules that say nothing this class can look for, in file and line order. */
    List<Place> uncheckable() {
        return uncheckable;
    }

    /** Checks every rule against the files, in the order the rules were written. */
    List<Outcome> check(List<SourceFile> files) {
        List<Outcome> outcomes = new ArrayList<>();
        for (Rule rule : rules) {
            List<Place> hits = new ArrayList<>();
            List<Check> missing = new ArrayList<>();
            for (Check check : rule.checks()) {
                List<Place> found = new ArrayList<>();
                for (SourceFile file : files) {
                    found.addAll(check.find(file));
                }
                if (rule.polarity() == Polarity.FORBIDDEN) {
                    hits.addAll(found);
                } else if (found.isEmpty()) {
                    missing.add(check);
                }
            }
            outcomes.add(new Outcome(rule, hits, missing));
        }
        return outcomes;
    }

    private static Polarity polarity(String text) {
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
    private record Section(Polarity polarity, boolean imports) {}

    /** The rule a clause states, or {@code null} when it states nothing that can be checked. */
    private static Rule rule(Place source, Section section) {
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
    private static List<String> terms(String clause, Polarity polarity, boolean inherited) {
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
    private static boolean aboutUsing(String clause, Matcher marker) {
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

    private static Check importCheck(String term) {
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

    private static Check check(String term) {
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

    /** A sequence of tokens, as words outside comments and strings. */
    record Words(List<String> tokens, String shown) implements Check {

        @Override
        public String describe() {
            return Place.code(shown);
        }

        @Override
        public List<Place> find(SourceFile file) {
            List<Place> hits = new ArrayList<>();
            List<Token> code = file.tokens();
            int lastLine = 0;
            for (int i = 0; i + tokens.size() <= code.size(); i++) {
                if (matchesAt(code, i) && code.get(i).line() != lastLine) {
                    lastLine = code.get(i).line();
                    hits.add(new Place(file.name(), lastLine, file.line(lastLine)));
                }
            }
            return hits;
        }

        private boolean matchesAt(List<Token> code, int start) {
            for (int j = 0; j < tokens.size(); j++) {
                Token token = code.get(start + j);
                if (token.kind() == Kind.STRING || !token.text().equalsIgnoreCase(tokens.get(j))) {
                    return false;
                }
            }
            return true;
        }
    }

    /** Any of some words, as whole tokens: {@code loops} are {@code for} and {@code while}. */
    record AnyWord(List<String> words, String shown) implements Check {

        @Override
        public String describe() {
            return shown + " (" + words.stream().map(Place::code).collect(Collectors.joining(", ")) + ")";
        }

        @Override
        public List<Place> find(SourceFile file) {
            List<Place> hits = new ArrayList<>();
            int lastLine = 0;
            for (Token token : file.tokens()) {
                if (token.kind() == Kind.WORD && words.contains(token.text()) && token.line() != lastLine) {
                    lastLine = token.line();
                    hits.add(new Place(file.name(), lastLine, file.line(lastLine)));
                }
            }
            return hits;
        }
    }

    /** An import statement of a module, or of any module when {@code module} is {@code null}. */
    record Import(String module) implements Check {

        @Override
        public String describe() {
            return module == null ? "any import" : "an import of " + Place.code(module);
        }

        @Override
        public List<Place> find(SourceFile file) {
            List<Place> hits = new ArrayList<>();
            List<String> lines = file.codeLines();
            boolean goBlock = false;
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i);
                List<String> modules = new ArrayList<>();
                if (goBlock) {
                    goBlock = !line.strip().startsWith(")");
                    Matcher quoted = GO_BLOCK_LINE.matcher(line);
                    if (goBlock && quoted.find()) {
                        modules.add(quoted.group(1));
                    }
                } else if (GO_BLOCK_START.matcher(line).find()) {
                    goBlock = true;
                } else if (line.length() <= Imports.MAX_LINE) {
                    Imports.of(line, modules);
                }
                if (modules.stream().anyMatch(this::matches)) {
                    hits.add(new Place(file.name(), i + 1, file.line(i + 1)));
                }
            }
            return hits;
        }

        private boolean matches(String imported) {
            if (module == null) {
                return true;
            }
            String found = normal(imported);
            String wanted = normal(module);
            return found.equals(wanted)
                    || found.startsWith(wanted + ".")
                    || found.endsWith("." + wanted)
                    || ("." + found + ".").contains("." + wanted + ".");
        }

        private static String normal(String module) {
            return module.toLowerCase(Locale.ROOT)
                    .replaceAll("\\.(h|hpp)$", "")
                    .replace("::", ".")
                    .replace('/', '.')
                    .replaceAll("\\.\\*$", "");
        }
    }

    private static final Pattern GO_BLOCK_START = Pattern.compile("^\\s*import\\s*\\(\\s*$");
    private static final Pattern GO_BLOCK_LINE = Pattern.compile("^\\s*(?:[\\w.]+\\s+)?\"([^\"]+)\"");

    /** The import statements of common languages, on one line. */
    private static final class Imports {

        /** Longer lines are not import statements; the patterns need not look at them. */
        static final int MAX_LINE = 1000;

        private static final Pattern PLAIN = Pattern.compile(
                "^\\s*import\\s+(?:static\\s+)?([\\w.*]+(?:\\s+as\\s+\\w+)?(?:\\s*,\\s*[\\w.*]+(?:\\s+as\\s+\\w+)?){0,100})"
                        + "\\s*;?\\s*$");
        private static final Pattern FROM = Pattern.compile("^\\s*from\\s+([\\w.]+)\\s+import\\s+(.+)$");
        private static final Pattern INCLUDE = Pattern.compile("^\\s*#\\s*include\\s*[<\"]([^>\"]+)[>\"]");
        private static final Pattern REQUIRE = Pattern.compile("\\brequire\\s*\\(?\\s*['\"]([^'\"]+)['\"]");
        private static final Pattern ES_MODULE =
                Pattern.compile("^\\s*(?:import|export)\\b[^'\"]*?(?:\\bfrom\\s*)?['\"]([^'\"]+)['\"]");
        private static final Pattern USING = Pattern.compile("^\\s*using\\s+(?:static\\s+)?([\\w.]+)\\s*;");
        private static final Pattern USE = Pattern.compile("^\\s*use\\s+([\\w:\\\\]+)");
        private static final Pattern LIBRARY = Pattern.compile("^\\s*(?:library|require)\\s*\\(\\s*([\\w.]+)\\s*\\)");

        static void of(String line, List<String> modules) {
            Matcher matcher = FROM.matcher(line);
            if (matcher.find()) {
                String module = matcher.group(1);
                modules.add(module);
                for (String name : matcher.group(2).replaceAll("[()]", "").split(",")) {
                    String bare = name.strip().split("\\s+")[0];
                    if (!bare.isEmpty()) {
                        modules.add(module + "." + bare);
                    }
                }
                return;
            }
            matcher = PLAIN.matcher(line);
            if (matcher.find()) {
                for (String name : matcher.group(1).split(",")) {
                    modules.add(name.strip().split("\\s+")[0]);
                }
                return;
            }
            for (Pattern pattern : List.of(INCLUDE, ES_MODULE, USING, USE, LIBRARY, REQUIRE)) {
                matcher = pattern.matcher(line);
                if (matcher.find()) {
                    modules.add(matcher.group(1).replace('\\', '.'));
                    return;
                }
            }
        }
    }

    /** A function that calls itself: its name followed by {@code (} inside its own body. */
    record Recursion() implements Check {

        private static final List<Pattern> DEFINITIONS = List.of(
                Pattern.compile("^\\s*(?:async\\s+)?def\\s+(\\w+)\\s*\\("),
                Pattern.compile("\\bfunction\\s*\\*?\\s*(\\w+)\\s*\\("),
                Pattern.compile("\\b(?:fun|fn)\\s+(?:<[^>]*>\\s*)?(\\w+)\\s*[<(]"),
                Pattern.compile("\\bfunc\\s+(?:\\([^)]*\\)\\s*)?(\\w+)\\s*\\("),
                Pattern.compile("\\b(?:const|let|var)\\s+(\\w+)\\s*=\\s*(?:async\\s*)?(?:function\\b|\\([^)]*\\)\\s*=>"
                        + "|\\w+\\s*=>)"),
                Pattern.compile("^\\s*(?:[\\w<>\\[\\],?&*:]+\\s+){1,8}\\**(\\w+)\\s*\\([^;{}]*\\)\\s*(?:const\\s*)?"
                        + "(?:throws\\s+[\\w.,\\s]+)?\\{?\\s*(?:[^;]*\\}\\s*)?$"));
        /** Longer lines are not function headers; the patterns need not look at them. */
        private static final int MAX_DEFINITION_LINE = 300;

        private static final Set<String> NOT_NAMES =
                Set.of("if", "for", "while", "switch", "catch", "return", "new", "else", "sizeof", "elif", "with");

        @Override
        public String describe() {
            return "recursion (a function that calls itself)";
        }

        @Override
        public List<Place> find(SourceFile file) {
            List<Place> hits = new ArrayList<>();
            List<String> lines = file.codeLines();
            for (int i = 0; i < lines.size(); i++) {
                String name = definedName(lines.get(i));
                if (name != null) {
                    int end = bodyEnd(file, i);
                    int call = selfCall(file, name, i + 1, end);
                    if (call > 0) {
                        hits.add(new Place(file.name(), call, file.line(call)));
                    }
                }
            }
            return hits;
        }

        private static String definedName(String line) {
            if (line.length() > MAX_DEFINITION_LINE) {
                return null;
            }
            for (Pattern definition : DEFINITIONS) {
                Matcher matcher = definition.matcher(line);
                if (matcher.find() && !NOT_NAMES.contains(matcher.group(1))) {
                    return matcher.group(1).toLowerCase(Locale.ROOT);
                }
            }
            return null;
        }

        /** The last line (1-based) of the body of the function defined on line {@code index + 1}. */
        private static int bodyEnd(SourceFile file, int index) {
            List<String> lines = file.codeLines();
            String definition = lines.get(index);
            if (file.syntax() == SourceFile.Syntax.HASH) {
                int indent = indent(definition);
                int end = index;
                for (int i = index + 1; i < lines.size(); i++) {
                    if (lines.get(i).isBlank()) {
                        continue;
                    }
                    if (indent(lines.get(i)) <= indent) {
                        break;
                    }
                    end = i;
                }
                return end + 1;
            }
            int depth = 0;
            boolean opened = false;
            for (int i = index; i < lines.size(); i++) {
                for (char c : lines.get(i).toCharArray()) {
                    if (c == '{') {
                        depth++;
                        opened = true;
                    } else if (c == '}') {
                        depth--;
                    }
                }
                if (opened && depth <= 0 || !opened && i > index + 1) {
                    return i + 1;
                }
            }
            return lines.size();
        }

        /** The first line in {@code from..to} calling {@code name}, not counting its definition; 0 if none. */
        private static int selfCall(SourceFile file, String name, int from, int to) {
            List<Token> tokens = file.tokens();
            int start = firstTokenAt(tokens, from);
            boolean definitionSeen = false;
            for (int i = start; i < tokens.size() && tokens.get(i).line() <= to; i++) {
                Token token = tokens.get(i);
                if (token.kind() != Kind.WORD || !token.text().equals(name)) {
                    continue;
                }
                if (!definitionSeen && token.line() == from) {
                    definitionSeen = true;
                    continue;
                }
                if (i + 1 < tokens.size() && tokens.get(i + 1).text().equals("(")) {
                    return token.line();
                }
            }
            return 0;
        }

        private static int firstTokenAt(List<Token> tokens, int line) {
            int low = 0;
            int high = tokens.size();
            while (low < high) {
                int middle = (low + high) >>> 1;
                if (tokens.get(middle).line() < line) {
                    low = middle + 1;
                } else {
                    high = middle;
                }
            }
            return low;
        }

        private static int indent(String line) {
            int indent = 0;
            while (indent < line.length() && Character.isWhitespace(line.charAt(indent))) {
                indent++;
            }
            return indent;
        }
    }
}
