package com.chatreview.meaning;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The in-process sentence model: the {@link Meaning} of texts. Thread-safe; each call runs on the caller's thread.
 * The model is loaded on the first call (about a second), once per node.
 */
public interface SentenceModel {

    /** The length of a meaning's vector. */
    int DIMENSIONS = 384;

    /**
     * A model of its own, outside the service (a benchmark's, a test's): it loads on first use. The service's is the
     * one bean of this type.
     */
    static SentenceModel inProcess() {
        return new MiniLmSentenceModel();
    }

    /**
     * The meanings of the texts, in their order; empty when the model cannot run here (the reason is logged once, and
     * in {@link #unavailableBecause()}). A text longer than the model reads at once (about 200 words) is read in
     * parts, and its meaning is theirs averaged.
     */
    Optional<List<Meaning>> meaningsOf(List<String> texts);

    /** Why the model cannot run here, once it was tried; empty while it runs or was not tried yet. */
    Optional<String> unavailableBecause();

    /**
     * How close in meaning each of {@code texts} is to each of {@code others}, as {@code [text][other]} cosines;
     * empty when the model cannot run here.
     */
    default Optional<double[][]> similarities(List<String> texts, List<String> others) {
        List<String> all = new ArrayList<>(texts);
        all.addAll(others);
        return meaningsOf(all).map(meanings -> {
            double[][] similarity = new double[texts.size()][others.size()];
            for (int text = 0; text < texts.size(); text++) {
                for (int other = 0; other < others.size(); other++) {
                    similarity[text][other] = meanings.get(text).similarity(meanings.get(texts.size() + other));
                }
            }
            return similarity;
        });
    }
}
