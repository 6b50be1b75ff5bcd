package com.chatreview.assistant;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A model's review as it streams in, read by the format {@link OpenAiAssistant#REVIEW_FORMAT} asks for: the
 * analysis in Markdown, then one last line {@code GRADE: X}, X one of A to F.
 *
 * <p>Text goes on to the caller as it comes, except what could still turn out to be the grade line: a line
 * whose text so far (leading spaces aside) is a prefix of {@code GRADE:}, or starts with it, is held back until
 * it ends or stops looking like one, and blank lines are held back until more analysis follows them, so the
 * analysis never ends in the blank lines before the grade. The text streamed is exactly the analysis.
 *
 * <p>{@link #finish()} reads the answer strictly: exactly one line starting with {@code GRADE:}, the last
 * non-blank line, reading {@code GRADE: X} (spaces around tolerated, nothing else), and a non-blank analysis
 * before it; anything else is an {@link AssistantFailure} saying why.
 */
final class GradedAnswer implements Consumer<String> {

    static final String GRADE_PREFIX = "GRADE:";
    private static final Pattern GRADE_LINE = Pattern.compile("GRADE:[ \\t]*([A-F])[ \\t]*\\r?");
    private static final int QUOTE_LENGTH = 40;

    private final Consumer<String> tokens;
    private final StringBuilder analysis = new StringBuilder();
    /** Line breaks and blank lines not yet passed on: they go out only when more analysis follows. */
    private final StringBuilder pendingBreaks = new StringBuilder();
    /** The current line while it might be the grade line. */
    private final StringBuilder held = new StringBuilder();
    /** Whether the current line has been found not to be a grade line and goes straight through. */
    private boolean passing;

    private final List<String> gradeLines = new ArrayList<>();
    private boolean textAfterGrade;

    record Parsed(String grade, String analysis) {}

    GradedAnswer(Consumer<String> tokens) {
        this.tokens = tokens;
    }

    @Override
    public void accept(String piece) {
        StringBuilder out = new StringBuilder();
        int start = 0;
        for (int i = 0; i < piece.length(); i++) {
            if (piece.charAt(i) == '\n') {
                take(piece.substring(start, i), out);
                endLine(out);
                start = i + 1;
            }
        }
        take(piece.substring(start), out);
        if (!out.isEmpty()) {
            analysis.append(out);
            tokens.accept(out.toString());
        }
    }

    /** The grade and the analysis, once the stream has ended. */
    Parsed finish() {
        endLine(new StringBuilder());
        if (gradeLines.isEmpty()) {
            throw unreadable("it has no final line 'GRADE: X'");
        }
        if (gradeLines.size() > 1) {
            throw unreadable(
                    "it has " + gradeLines.size() + " lines starting with GRADE:, where exactly one is" + " expected");
        }
        if (textAfterGrade) {
            throw unreadable("its GRADE: line is not the last line");
        }
        Matcher grade = GRADE_LINE.matcher(gradeLines.getFirst().strip());
        if (!grade.matches()) {
            throw unreadable(
                    "its grade line '" + shorten(gradeLines.getFirst().strip()) + "' does not give one letter A to F");
        }
        if (analysis.toString().isBlank()) {
            throw unreadable("it has a grade but no analysis");
        }
        return new Parsed(grade.group(1), analysis.toString());
    }

    /** Part of the current line, without its line break. */
    private void take(String text, StringBuilder out) {
        if (text.isEmpty()) {
            return;
        }
        if (passing) {
            pass(text, out);
            return;
        }
        held.append(text);
        String line = held.toString().stripLeading();
        if (line.isEmpty() || couldBeGradeLine(line)) {
            return;
        }
        passing = true;
        String release = held.toString();
        held.setLength(0);
        pass(release, out);
    }

    private void pass(String text, StringBuilder out) {
        if (!gradeLines.isEmpty()) {
            textAfterGrade = true;
        }
        out.append(pendingBreaks);
        pendingBreaks.setLength(0);
        out.append(text);
    }

    private void endLine(StringBuilder out) {
        if (passing) {
            pendingBreaks.append('\n');
        } else if (held.toString().isBlank()) {
            pendingBreaks.append(held).append('\n');
        } else {
            gradeLines.add(held.toString());
        }
        held.setLength(0);
        passing = false;
    }

    private static boolean couldBeGradeLine(String line) {
        return line.length() <= GRADE_PREFIX.length() ? GRADE_PREFIX.startsWith(line) : line.startsWith(GRADE_PREFIX);
    }

    private static AssistantFailure unreadable(String why) {
        return new AssistantFailure("The AI provider's answer could not be read as a review: " + why);
    }

    private static String shorten(String text) {
        return text.length() <= QUOTE_LENGTH ? text : text.substring(0, QUOTE_LENGTH) + "…";
    }
}
