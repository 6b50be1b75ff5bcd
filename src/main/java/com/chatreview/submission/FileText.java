package com.chatreview.submission;

import org.jspecify.annotations.Nullable;

/**
 * A file of a submission with its text.
 *
 * @param text what the file says as the review reads it; {@code null} before it was extracted
 */
public record FileText(SubmittedFile file, @Nullable ExtractedText text) {}
