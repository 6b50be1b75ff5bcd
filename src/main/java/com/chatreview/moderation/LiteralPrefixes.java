package com.chatreview.moderation;

import java.util.LinkedHashSet;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The literal texts one of which every match of a rule's pattern starts with, read off the pattern: what lets the
 * screener run only the rules whose first words the text holds (a message touches a handful of its hundreds of rules).
 * Understands the subset the rules are written in: literal characters, {@code \b}, groups of alternatives, and stops
 * at the first construct it cannot read ({@code ?}, {@code *}, classes, {@code \d}, {@code .}): the prefixes are then
 * shorter, never wrong. {@code null} when it cannot name any prefix of at least two characters: the rule always runs.
 */
final class LiteralPrefixes {

    /** Past this many prefixes a rule's prefixes stop growing. */
    private static final int MOST = 256;

    private LiteralPrefixes() {}

    static @Nullable Set<String> of(String pattern) {
        Set<String> prefixes = new LinkedHashSet<>();
        int at = 0;
        while (true) {
            Read alternative = sequence(pattern, at);
            prefixes.addAll(alternative.prefixes());
            if (alternative.end() >= pattern.length()) {
                break;
            }
            if (pattern.charAt(alternative.end()) != '|') {
                return null;
            }
            at = alternative.end() + 1;
        }
        for (String prefix : prefixes) {
            if (prefix.strip().length() < 2) {
                return null;
            }
        }
        return prefixes;
    }

    /**
     * What a sequence from {@code at} up to the end of its group starts with: the prefixes, whether each is the whole
     * of what the sequence can match (so that what follows it may be appended), and where the sequence ends.
     */
    private record Read(Set<String> prefixes, boolean whole, int end) {}

    private static Read sequence(String pattern, int at) {
        Set<String> prefixes = new LinkedHashSet<>();
        prefixes.add("");
        int i = at;
        while (i < pattern.length()) {
            char c = pattern.charAt(i);
            if (c == '|' || c == ')') {
                return new Read(prefixes, true, i);
            }
            if (c == '\\' && i + 1 < pattern.length() && pattern.charAt(i + 1) == 'b') {
                i += 2;
                continue;
            }
            if (c == '(') {
                Group group = group(pattern, i);
                if (group == null) {
                    return new Read(prefixes, false, skipToEnd(pattern, i));
                }
                if (quantified(pattern, group.end() + 1)) {
                    return optional(pattern, prefixes, group.prefixes(), group.end() + 1);
                }
                Set<String> joined = new LinkedHashSet<>();
                for (String prefix : prefixes) {
                    for (String alternative : group.prefixes()) {
                        joined.add(prefix + alternative);
                    }
                }
                if (joined.size() > MOST) {
                    return new Read(prefixes, false, skipToEnd(pattern, i));
                }
                prefixes = joined;
                if (!group.whole()) {
                    return new Read(prefixes, false, skipToEnd(pattern, group.end() + 1));
                }
                i = group.end() + 1;
                continue;
            }
            String literal = literal(pattern, i);
            if (literal == null) {
                return new Read(prefixes, false, skipToEnd(pattern, i));
            }
            if (quantified(pattern, i + literalLength(pattern, i))) {
                return optional(pattern, prefixes, Set.of(literal), i + literalLength(pattern, i));
            }
            Set<String> joined = new LinkedHashSet<>();
            for (String prefix : prefixes) {
                joined.add(prefix + literal);
            }
            prefixes = joined;
            i += literalLength(pattern, i);
        }
        return new Read(prefixes, true, i);
    }

    /**
     * The prefixes where a part that may be left out or repeated ({@code ?}, {@code *}) follows what was read: it, or
     * what comes after it; a part that must come ({@code +}, {@code {n}}) ends the prefixes.
     */
    private static Read optional(String pattern, Set<String> read, Set<String> part, int quantifier) {
        Set<String> joined = new LinkedHashSet<>();
        for (String prefix : read) {
            for (String alternative : part) {
                joined.add(prefix + alternative);
            }
        }
        char kind = pattern.charAt(quantifier);
        if (kind != '?' && kind != '*') {
            return new Read(kind == '+' ? joined : read, false, skipToEnd(pattern, quantifier));
        }
        Read rest = sequence(pattern, quantifier + 1);
        for (String prefix : read) {
            for (String after : rest.prefixes()) {
                joined.add(prefix + after);
            }
        }
        if (joined.size() > MOST) {
            return new Read(read, false, rest.end());
        }
        return new Read(joined, false, rest.end());
    }

    private record Group(Set<String> prefixes, boolean whole, int end) {}

    /** The alternatives of the group opening at {@code open}; null for a group this reader does not take apart. */
    private static @Nullable Group group(String pattern, int open) {
        int i = open + 1;
        if (pattern.startsWith("?", i)) {
            if (!pattern.startsWith("?:", i)) {
                return null;
            }
            i += 2;
        }
        Set<String> prefixes = new LinkedHashSet<>();
        boolean whole = true;
        while (true) {
            Read alternative = sequence(pattern, i);
            prefixes.addAll(alternative.prefixes());
            whole &= alternative.whole();
            int end = alternative.end();
            if (end >= pattern.length()) {
                return null;
            }
            if (pattern.charAt(end) == ')') {
                return new Group(prefixes, whole, end);
            }
            i = end + 1;
        }
    }

    /** From {@code at}, the end of the enclosing sequence: the next {@code |} or {@code )} at this depth. */
    private static int skipToEnd(String pattern, int at) {
        int depth = 0;
        boolean inClass = false;
        for (int i = at; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (c == '\\') {
                i++;
            } else if (inClass) {
                inClass = c != ']';
            } else if (c == '[') {
                inClass = true;
            } else if (c == '(') {
                depth++;
            } else if (c == ')') {
                if (depth == 0) {
                    return i;
                }
                depth--;
            } else if (c == '|' && depth == 0) {
                return i;
            }
        }
        return pattern.length();
    }

    private static boolean quantified(String pattern, int at) {
        return at < pattern.length() && "?*+{".indexOf(pattern.charAt(at)) >= 0;
    }

    /** The literal character at {@code at} (an escaped one included), or null for anything else. */
    private static @Nullable String literal(String pattern, int at) {
        char c = pattern.charAt(at);
        if (c == '\\') {
            if (at + 1 >= pattern.length()) {
                return null;
            }
            char escaped = pattern.charAt(at + 1);
            return ".+/@-'$()".indexOf(escaped) >= 0 ? String.valueOf(escaped) : null;
        }
        if (Character.isLetterOrDigit(c) || " '/@-,:=".indexOf(c) >= 0) {
            return String.valueOf(c);
        }
        return null;
    }

    private static int literalLength(String pattern, int at) {
        return pattern.charAt(at) == '\\' ? 2 : 1;
    }
}
