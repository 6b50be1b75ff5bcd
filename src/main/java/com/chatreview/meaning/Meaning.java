package com.chatreview.meaning;

/**
 * A text's meaning as the sentence model sees it: a unit vector of {@link SentenceModel#DIMENSIONS} numbers. Texts
 * that say the same thing in other words have meanings close to each other.
 */
public final class Meaning {

    private final float[] vector;

    Meaning(float[] vector) {
        this.vector = vector.clone();
    }

    /**
     * How close two meanings are: the cosine of their vectors, from -1 to 1. Paraphrases score high (0.7 and up for
     * short sentences), texts about different things low (around 0 to 0.2); texts on one topic that say different
     * things fall between.
     */
    public double similarity(Meaning other) {
        double dot = 0;
        double norms = 0;
        double otherNorms = 0;
        for (int i = 0; i < vector.length; i++) {
            dot += vector[i] * other.vector[i];
            norms += vector[i] * vector[i];
            otherNorms += other.vector[i] * other.vector[i];
        }
        return norms == 0 || otherNorms == 0 ? 0 : dot / Math.sqrt(norms * otherNorms);
    }
}
