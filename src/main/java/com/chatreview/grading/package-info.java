/**
 * The rule-based review of a homework: which restriction rules a submission breaks, how close it is to the
 * reference solution, what in it is addressed to the grader, and the letter that follows by the rubric of
 * {@code docs/review-rubric.md}. Its API is {@link com.chatreview.grading.Grader#review} on a
 * {@link com.chatreview.grading.Homework}; everything else is package-private. No model, no randomness, no
 * Spring: the offline assistant is its one user.
 */
@org.springframework.modulith.ApplicationModule(displayName = "Grading")
package com.chatreview.grading;
