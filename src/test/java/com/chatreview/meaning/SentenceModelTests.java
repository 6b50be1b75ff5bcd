package com.chatreview.meaning;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** The sentence model in the jar, loaded on this platform: paraphrases are close, unrelated answers are not. */
class SentenceModelTests {

    static final SentenceModel MODEL = new MiniLmSentenceModel();

    @Test
    void twoParaphrasesScoreAboveTwoUnrelatedAnswers() {
        List<Meaning> meanings = meanings(
                "A stack is a last-in, first-out structure: the element added last is the first one removed.",
                "In a stack you always take off the item that was put on most recently.",
                "Photosynthesis is how plants turn sunlight, water and carbon dioxide into sugar.",
                "The French Revolution began in 1789 with the storming of the Bastille.");

        double paraphrases = meanings.get(0).similarity(meanings.get(1));
        double unrelated = meanings.get(2).similarity(meanings.get(3));
        double offTopic = meanings.get(0).similarity(meanings.get(2));

        assertThat(paraphrases).as("paraphrases").isGreaterThan(0.5);
        assertThat(unrelated).as("unrelated answers").isLessThan(0.25);
        assertThat(offTopic).as("an answer about something else").isLessThan(0.25);
        assertThat(paraphrases).isGreaterThan(unrelated + 0.3);
    }

    @Test
    void aWrongAnswerOnTheTopicIsFartherThanAParaphraseAndCloserThanAnotherTopic() {
        List<Meaning> meanings = meanings(
                "A queue serves elements in the order they arrived: first in, first out.",
                "Elements leave a queue in the same order they entered it.",
                "A queue always removes the element that was added last.",
                "Mitochondria produce most of the cell's energy.");

        double paraphrase = meanings.get(0).similarity(meanings.get(1));
        double wrong = meanings.get(0).similarity(meanings.get(2));
        double otherTopic = meanings.get(0).similarity(meanings.get(3));

        assertThat(paraphrase).isGreaterThan(wrong);
        assertThat(wrong).isGreaterThan(otherTopic);
    }

    @Test
    void aTextLongerThanTheModelReadsAtOnceStillHasItsMeaningAndABlankOneHasNone() {
        String sentence = "Recursion solves a problem by solving smaller instances of the same problem. ";
        List<Meaning> meanings = meanings(sentence.repeat(60), sentence, "   ");

        assertThat(meanings.get(0).similarity(meanings.get(1))).isGreaterThan(0.8);
        assertThat(meanings.get(2).similarity(meanings.get(1))).isZero();
    }

    @Test
    void callsFromManyThreadsAtOnceEachGetTheirOwnAnswers() throws Exception {
        List<String> texts = List.of(
                "Binary search halves the interval it looks in at every step.",
                "A hash table maps keys to values through a hash function.",
                "Sorting by merging splits the list, sorts the halves and merges them.");
        List<Meaning> alone = meanings(texts.toArray(String[]::new));
        List<Callable<Double>> calls = new ArrayList<>();
        for (int i = 0; i < 24; i++) {
            int text = i % texts.size();
            calls.add(() -> MODEL.meaningsOf(List.of(texts.get(text)))
                    .orElseThrow()
                    .getFirst()
                    .similarity(alone.get(text)));
        }
        try (var threads = Executors.newFixedThreadPool(8)) {
            for (Future<Double> same : threads.invokeAll(calls)) {
                assertThat(same.get()).isGreaterThan(0.999);
            }
        }
    }

    @Test
    void aTextTheModelFailsOnLeavesItsCallerWithoutMeaningsNotWithAFailure() {
        SentenceModel failing = new MiniLmSentenceModel(() -> texts -> {
            throw new IllegalStateException("the runtime could not run the model");
        });

        assertThat(failing.meaningsOf(List.of("An answer."))).isEmpty();
        assertThat(failing.meaningsOf(List.of("   ")))
                .as("nothing to ask of the model")
                .isPresent();
    }

    @Test
    void theNativesOfThisPlatformAreOnTheClassPath() {
        assertThat(MiniLmSentenceModel.missingNatives()).isNull();
        assertThat(MODEL.unavailableBecause()).isEmpty();
    }

    private static List<Meaning> meanings(String... texts) {
        return MODEL.meaningsOf(List.of(texts))
                .orElseThrow(() -> new AssertionError("no model: " + MODEL.unavailableBecause()));
    }
}
