package com.chatreview.submission;

/** PLACEHOLDER until the extraction branch is merged. */
public record ExtractedText(String text, boolean truncated, String notOpened) {}
