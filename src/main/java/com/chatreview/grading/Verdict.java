package com.chatreview.grading;

/**
 * A graded homework.
 *
 * @param grade {@code A} to {@code F}, by the rubric of {@code docs/review-rubric.md}
 * @param analysis the findings the grade follows from, in Markdown, ending with why this letter
 */
public record Verdict(String grade, String analysis) {}
