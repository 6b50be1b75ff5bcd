package com.chatreview.grading;

/**
 * Where something is in a file of a review, with the line as written, for pointing a reader to it.
 *
 * @param line 1-based; {@code 0} when the finding is about the whole file
 */
public record Place(String file, int line, String text) {

    private static final int QUOTE_LENGTH = 100;

    /** {@code solution.py, line 3: `return sum(xs)`}, the form every pointer of a review takes. */
    String pointer() {
        String where = line > 0 ? file + ", line " + line : file;
        String quote = shorten(text);
        return quote.isEmpty() ? where : where + ": " + code(quote);
    }

    /** One line of at most {@value #QUOTE_LENGTH} characters, whitespace runs made single spaces. */
    public static String shorten(String text) {
        String line = text == null ? "" : text.strip().replaceAll("\\s+", " ");
        return line.length() <= QUOTE_LENGTH
                ? line
                : line.substring(0, QUOTE_LENGTH - 1).strip() + "…";
    }

    /** Markdown inline code that the quoted text cannot end early. */
    public static String code(String text) {
        int longest = 0;
        int run = 0;
        for (int i = 0; i < text.length(); i++) {
            run = text.charAt(i) == '`' ? run + 1 : 0;
            longest = Math.max(longest, run);
        }
        if (longest == 0) {
            return "`" + text + "`";
        }
        String fence = "`".repeat(longest + 1);
        return fence + " " + text + " " + fence;
    }
}
