package com.chatreview.submission;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The text of one uploaded file, as the review reads it.
 *
 * @param text the file's text with {@code \n} line endings, possibly blank (the review decides what is empty);
 *     empty when the file was not opened
 * @param truncated the text stops at the size budget, before the end of the file
 * @param notOpened why there is no text, for a person to read ("an archive: not expanded"); {@code null} when read
 */
public record ExtractedText(
        String text, boolean truncated, @Nullable String notOpened) {

    public ExtractedText {
        Objects.requireNonNull(text, "text");
        if (notOpened != null && (notOpened.isBlank() || !text.isEmpty() || truncated)) {
            throw new IllegalArgumentException("A file that was not opened has a reason and no text");
        }
    }

    /**
     * A file that was read, whole or up to the budget. A NUL character, which no PostgreSQL text holds and no
     * reader needs, becomes U+FFFD.
     */
    public static ExtractedText read(String text, boolean truncated) {
        return new ExtractedText(text.replace('\u0000', '\uFFFD'), truncated, null);
    }

    /** A file that is listed by name but whose content is not given. */
    public static ExtractedText notRead(String reason) {
        return new ExtractedText("", false, Objects.requireNonNull(reason, "reason"));
    }

    public boolean opened() {
        return notOpened == null;
    }
}
