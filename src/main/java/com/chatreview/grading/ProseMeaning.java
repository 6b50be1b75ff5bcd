package com.chatreview.grading;

import java.util.List;
import java.util.Optional;

/**
 * How close texts are in meaning, as a sentence model judges them: how a written answer is compared with the
 * reference answer and the task (docs/review-rubric.md, Written answers). The grader owns no model: the offline
 * assistant passes the service's, a test its own or {@link #NONE}.
 */
@FunctionalInterface
public interface ProseMeaning {

    /** No model: written answers are graded as the service cannot judge them. */
    ProseMeaning NONE = (texts, others) -> Optional.empty();

    /**
     * The similarity of each of {@code texts} to each of {@code others}, as {@code [text][other]}, from -1 to 1
     * (paraphrases high, unrelated texts near 0); empty when no model can judge here.
     */
    Optional<double[][]> similarities(List<String> texts, List<String> others);
}
