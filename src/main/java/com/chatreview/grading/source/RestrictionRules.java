package com.chatreview.grading.source;

import com.chatreview.grading.Place;
import com.chatreview.grading.source.SourceFile.Kind;
import com.chatreview.grading.source.SourceFile.Token;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * The rules of a homework's restriction files, as {@link RestrictionParser} reads them, and where a submission
 * breaks them. A rule about imports is matched against the import statements of common languages; {@code loops}
 * means {@code for} and {@code while}; {@code recursion} means a function that calls itself; any other term is
 * matched as whole tokens of the code, outside comments and string literals, ignoring case.
 */
public final class RestrictionRules {

    public enum Polarity {
        FORBIDDEN,
        REQUIRED
    }

    /** A rule that can be checked: a forbidding rule is broken by any hit of any check; a requiring one needs all. */
    public record Rule(Place source, Polarity polarity, List<Check> checks) {}

    /**
     * What checking a rule found.
     *
     * @param hits for a forbidding rule, where the submission breaks it
     * @param missing for a requiring rule, what no file of the submission has
     */
    public record Outcome(Rule rule, List<Place> hits, List<Check> missing) {

        public boolean broken() {
            return !hits.isEmpty() || !missing.isEmpty();
        }
    }

    /** One thing a rule looks for in a file. */
    public sealed interface Check {

        /** What is looked for, as the review names it. */
        String describe();

        List<Place> find(SourceFile file);
    }

    private final List<Rule> rules;
    private final List<Place> uncheckable;

    RestrictionRules(List<Rule> rules, List<Place> uncheckable) {
        this.rules = List.copyOf(rules);
        this.uncheckable = List.copyOf(uncheckable);
    }

    public List<Rule> rules() {
        return rules;
    }

    /** Lines read as rules that say nothing this class can look for, in file and line order. */
    public List<Place> uncheckable() {
        return uncheckable;
    }

    /** Checks every rule against the files, in the order the rules were written. */
    public List<Outcome> check(List<SourceFile> files) {
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
    record Import(@Nullable String module) implements Check {

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

        private static @Nullable String definedName(String line) {
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
