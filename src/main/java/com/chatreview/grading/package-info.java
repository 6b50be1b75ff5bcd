/**
 * The rule-based review of a homework: which restriction rules a submission breaks, how close it is to the
 * reference solution, what in it is addressed to the grader, and the letter that follows by the rubric of
 * {@code docs/review-rubric.md}. Its API is {@link com.chatreview.grading.Grader#review} on a
 * {@link com.chatreview.grading.ReviewRequest}, giving a {@link com.chatreview.grading.Verdict}, with the types these
 * carry (rubric, grades, test evidence, rule outcomes, places, the prose-meaning port) and the everyday words it
 * ignores ({@link com.chatreview.grading.Stopwords}); reading a student's source is the {@code source} sub-package's.
 * No model, no randomness, no Spring beans. The offline assistant grades with it; the review module builds the
 * {@code ReviewRequest} every provider reviews.
 */
@org.jspecify.annotations.NullMarked
@org.springframework.modulith.ApplicationModule(displayName = "Grading")
package com.chatreview.grading;
