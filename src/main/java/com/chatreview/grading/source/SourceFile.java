package com.chatreview.grading.source;

import com.chatreview.grading.ReviewRequest.ReviewDocument;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A file of a review read as code: its tokens with the line each starts on, and its lines with the comments
 * blanked out. One pass over the characters, so a file costs time in proportion to its length.
 *
 * <p>The comment syntax comes from the file's extension (or its content type): {@code #} for Python, shell,
 * Ruby, R, YAML; {@code //} and {@code /* *\/} for the C family, Java, JavaScript, Go, Rust, Kotlin, C#;
 * {@code --} for SQL, Haskell and Lua. In those files string literals are one token each, so a word inside a
 * string is not taken for code. Any other file (plain text, Markdown) is read as prose: no comments, no
 * strings, every word a token.
 */
public final class SourceFile {

    public enum Kind {
        /** A name or a word: letters, digits and underscores, starting with a letter or underscore. */
        WORD,
        NUMBER,
        /** A string literal with its quotes, in code only. */
        STRING,
        /** An operator or punctuation; common two- and three-character operators are one token. */
        SYMBOL
    }

    /** A token; {@code text} is lower-cased for words, as every comparison here ignores case. */
    public record Token(String text, Kind kind, int line) {

        boolean wordLike() {
            return kind != Kind.SYMBOL;
        }
    }

    enum Syntax {
        HASH,
        SLASH,
        DASH,
        PROSE
    }

    private static final Set<String> HASH_EXTENSIONS = Set.of(
            "py",
            "pyw",
            "rb",
            "sh",
            "bash",
            "zsh",
            "r",
            "pl",
            "pm",
            "yaml",
            "yml",
            "toml",
            "ps1",
            "jl",
            "nim",
            "ex",
            "exs",
            "cmake",
            "mk",
            "makefile",
            "dockerfile",
            "tcl",
            "coffee",
            "cr");
    private static final Set<String> SLASH_EXTENSIONS = Set.of(
            "java", "c", "h", "cpp", "cc", "cxx", "hpp", "hh", "cs", "js", "mjs", "cjs", "ts", "tsx", "jsx", "go", "kt",
            "kts", "swift", "rs", "scala", "sc", "dart", "groovy", "gradle", "php", "css", "scss", "less", "m", "mm",
            "v", "sv", "zig", "sol", "proto", "json5");
    private static final Set<String> DASH_EXTENSIONS = Set.of("sql", "hs", "lhs", "lua", "ada", "adb", "ads", "elm");
    private static final String[] OPERATORS = {
        ">>>=", "<<=", ">>=", "===", "!==", "**=", "//=", "...", "->", "=>", "==", "!=", "<=", ">=", "&&", "||", "++",
        "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<", ">>", "**", "//", "::", ":=", "?.", "??"
    };

    private final String name;
    private final Syntax syntax;
    private final List<String> lines;
    private final List<String> codeLines;
    private final List<Token> tokens;

    private SourceFile(String name, Syntax syntax, List<String> lines, List<String> codeLines, List<Token> tokens) {
        this.name = name;
        this.syntax = syntax;
        this.lines = lines;
        this.codeLines = codeLines;
        this.tokens = tokens;
    }

    public static SourceFile read(ReviewDocument document) {
        return read(document.name(), document.contentType(), document.text());
    }

    public static SourceFile read(String name, @Nullable String contentType, String text) {
        Syntax syntax = syntax(name, contentType);
        Scanner scanner = new Scanner(text, syntax);
        scanner.run();
        return new SourceFile(name, syntax, text.lines().toList(), scanner.codeLines, scanner.tokens);
    }

    public String name() {
        return name;
    }

    Syntax syntax() {
        return syntax;
    }

    /** The file's lines as written; line {@code n} is {@code lines().get(n - 1)}. */
    public List<String> lines() {
        return lines;
    }

    /** The file's lines with every comment replaced by spaces; string literals are kept. */
    List<String> codeLines() {
        return codeLines;
    }

    public List<Token> tokens() {
        return tokens;
    }

    /** The line as written, or an empty string past the end. */
    public String line(int number) {
        return number >= 1 && number <= lines.size() ? lines.get(number - 1) : "";
    }

    static Syntax syntax(String name, @Nullable String contentType) {
        String lower = name == null ? "" : name.toLowerCase(Locale.ROOT);
        int dot = lower.lastIndexOf('.');
        String extension = dot < 0 ? lower.substring(lower.lastIndexOf('/') + 1) : lower.substring(dot + 1);
        if (HASH_EXTENSIONS.contains(extension)) {
            return Syntax.HASH;
        }
        if (SLASH_EXTENSIONS.contains(extension)) {
            return Syntax.SLASH;
        }
        if (DASH_EXTENSIONS.contains(extension)) {
            return Syntax.DASH;
        }
        String type = contentType == null ? "" : contentType.toLowerCase(Locale.ROOT);
        if (type.contains("python") || type.contains("x-sh") || type.contains("ruby") || type.contains("yaml")) {
            return Syntax.HASH;
        }
        if (type.contains("java") || type.contains("x-c") || type.contains("javascript") || type.contains("go")) {
            return Syntax.SLASH;
        }
        if (type.contains("sql")) {
            return Syntax.DASH;
        }
        return Syntax.PROSE;
    }

    /** The single pass: a small state machine over the characters. */
    private static final class Scanner {

        private final String text;
        private final Syntax syntax;
        private final List<String> codeLines = new ArrayList<>();
        private final List<Token> tokens = new ArrayList<>();
        private final StringBuilder code = new StringBuilder();
        private int position;
        private int line = 1;

        Scanner(String text, Syntax syntax) {
            this.text = text;
            this.syntax = syntax;
        }

        void run() {
            while (position < text.length()) {
                char c = text.charAt(position);
                if (c == '\n') {
                    endLine();
                    position++;
                } else if (Character.isWhitespace(c)) {
                    code.append(c);
                    position++;
                } else if (lineCommentStarts()) {
                    skipToEndOfLine();
                } else if (syntax == Syntax.SLASH && text.startsWith("/*", position)) {
                    skipBlockComment();
                } else if (syntax != Syntax.PROSE && (c == '"' || c == '\'' || c == '`')) {
                    string(c);
                } else if (Character.isLetter(c) || c == '_' || c == '$') {
                    word();
                } else if (Character.isDigit(c)) {
                    number();
                } else {
                    symbol();
                }
            }
            if (!code.isEmpty() || !text.isEmpty() && text.charAt(text.length() - 1) != '\n') {
                codeLines.add(code.toString());
            }
        }

        private boolean lineCommentStarts() {
            return switch (syntax) {
                case HASH -> text.charAt(position) == '#';
                case SLASH -> text.startsWith("//", position);
                case DASH -> text.startsWith("--", position);
                case PROSE -> false;
            };
        }

        private void endLine() {
            codeLines.add(code.toString());
            code.setLength(0);
            line++;
        }

        private void skipToEndOfLine() {
            while (position < text.length() && text.charAt(position) != '\n') {
                code.append(' ');
                position++;
            }
        }

        private void skipBlockComment() {
            int end = text.indexOf("*/", position + 2);
            int stop = end < 0 ? text.length() : end + 2;
            blankUntil(stop);
        }

        private void blankUntil(int stop) {
            while (position < stop) {
                if (text.charAt(position) == '\n') {
                    endLine();
                } else {
                    code.append(' ');
                }
                position++;
            }
        }

        /** A string literal: triple quotes may span lines, any other ends at its quote or the line's end. */
        private void string(char quote) {
            int start = position;
            int startLine = line;
            String triple = String.valueOf(quote).repeat(3);
            boolean multiLine = quote == '`' || text.startsWith(triple, position);
            int end;
            if (multiLine && quote != '`') {
                int close = text.indexOf(triple, position + 3);
                end = close < 0 ? text.length() : close + 3;
            } else {
                end = position + 1;
                while (end < text.length()) {
                    char c = text.charAt(end);
                    if (c == '\\') {
                        end += 2;
                        continue;
                    }
                    if (c == quote) {
                        end++;
                        break;
                    }
                    if (c == '\n' && !multiLine) {
                        break;
                    }
                    end++;
                }
                end = Math.min(end, text.length());
            }
            String literal = text.substring(start, end);
            tokens.add(new Token(literal, Kind.STRING, startLine));
            for (int i = start; i < end; i++) {
                char c = text.charAt(i);
                if (c == '\n') {
                    endLine();
                } else {
                    code.append(c);
                }
            }
            position = end;
        }

        private void word() {
            int start = position;
            while (position < text.length()) {
                char c = text.charAt(position);
                if (!(Character.isLetterOrDigit(c) || c == '_' || c == '$')) {
                    break;
                }
                position++;
            }
            take(start, Kind.WORD);
        }

        private void number() {
            int start = position;
            while (position < text.length()) {
                char c = text.charAt(position);
                boolean decimalPoint =
                        c == '.' && position + 1 < text.length() && Character.isDigit(text.charAt(position + 1));
                if (!(Character.isLetterOrDigit(c) || c == '_' || decimalPoint)) {
                    break;
                }
                position++;
            }
            take(start, Kind.NUMBER);
        }

        private void symbol() {
            int start = position;
            int length = 1;
            for (String operator : OPERATORS) {
                if (text.startsWith(operator, position)) {
                    length = operator.length();
                    break;
                }
            }
            if (Character.isSurrogate(text.charAt(position)) && position + 1 < text.length()) {
                length = 2;
            }
            position += length;
            take(start, Kind.SYMBOL);
        }

        private void take(int start, Kind kind) {
            String token = text.substring(start, position);
            code.append(token);
            tokens.add(new Token(kind == Kind.WORD ? token.toLowerCase(Locale.ROOT) : token, kind, line));
        }
    }
}
