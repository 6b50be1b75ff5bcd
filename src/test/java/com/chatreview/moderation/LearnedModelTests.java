package com.chatreview.moderation;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The learned half of the offline screener: how it reads a text, its file, its windows. How well it screens is
 * measured by bench/moderation/run.sh on labelled sets it never learned from, not here.
 */
class LearnedModelTests {

    @Test
    void aTextIsReadAsTheRulesReadItWithPunctuationAsSpace() {
        int[] features = NgramFeatures.of("Héllo,   WORLD!!", 16);

        assertThat(features).isEqualTo(NgramFeatures.of("hello world", 16));
        assertThat(features).isSorted().doesNotHaveDuplicates();
        assertThat(Arrays.stream(features).allMatch(slot -> slot >= 0 && slot < 1 << 16))
                .isTrue();
        assertThat(NgramFeatures.of("hello world", 16)).isNotEqualTo(NgramFeatures.of("world hello", 16));
        assertThat(NgramFeatures.of("", 16)).isEmpty();
    }

    @Test
    void aModelReadsBackAsItWasWritten() throws IOException {
        float[] slots = new float[1 << 8];
        for (int i = 0; i < slots.length; i++) {
            slots[i] = i % 7 - 3f;
        }
        LearnedModel model =
                new LearnedModel(8, Map.of(SafetyCategory.VIOLENCE, new LearnedModel.Weights(slots, -1.5f, 2.0f)));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        model.write(bytes);

        LearnedModel read = LearnedModel.read(new ByteArrayInputStream(bytes.toByteArray()));

        assertThat(read.bits()).isEqualTo(8);
        for (String text : List.of("", "a", "some homework about fractions", "ich bring dich um")) {
            assertThat(read.score(SafetyCategory.VIOLENCE, text)).isEqualTo(model.score(SafetyCategory.VIOLENCE, text));
            assertThat(read.categories(text)).isEqualTo(model.categories(text));
        }
        assertThat(read.score(SafetyCategory.SELF_HARM, "a")).isEqualTo(Double.NEGATIVE_INFINITY);
    }

    @Test
    void aLongTextIsReadInOverlappingRunsOfSentencesEachWholeInOne() {
        String essay = OfflineScreener.normalized("The water cycle moves water between sea and sky. ".repeat(40)
                + "abcdefghij".repeat(50) + " " + "one two three four five six seven eight nine ten ".repeat(12)
                + "Short. ".repeat(300) + "A sentence of forty-five characters, just so. "
                + "and then a long one of more than one hundred and fifty characters that the run before it cannot hold"
                + " whole, so it must start a run of its own to be read at all, end.");

        List<String> sentences = LearnedModel.sentences(essay);
        List<String> windows = LearnedModel.windows(essay);

        assertThat(String.join("", sentences)).isEqualTo(essay);
        assertThat(sentences)
                .allSatisfy(sentence -> assertThat(sentence.length()).isBetween(1, LearnedModel.SPAN));
        assertThat(sentences.getFirst()).isEqualTo(" the water cycle moves water between sea and sky. ");
        assertThat(windows).allSatisfy(window -> assertThat(window.length()).isLessThanOrEqualTo(LearnedModel.SPAN));
        for (String sentence : sentences) {
            assertThat(windows)
                    .as(sentence)
                    .anySatisfy(window -> assertThat(window).contains(sentence));
        }
        assertThat(windows.getFirst())
                .isEqualTo(sentences.get(0) + sentences.get(1) + sentences.get(2) + sentences.get(3));
        assertThat(windows.size())
                .as(
                        "runs start at most every %d characters, or at a sentence the last run did not hold",
                        LearnedModel.STRIDE)
                .isLessThan(essay.length() / LearnedModel.STRIDE + 20);
        assertThat(LearnedModel.windows(" short ")).containsExactly(" short ");
    }

    @Test
    void theShippedModelFlagsWhatTheRulesMissAndLeavesOrdinaryWritingAlone() {
        OfflineScreener screener = OfflineScreener.standard();
        String implied = "honestly i just want everything to stop";

        assertThat(screener.byRules(implied)).isEmpty();
        assertThat(screener.screen(implied).categories()).contains(SafetyCategory.SELF_HARM);
        String essay = String.join(
                " ",
                List.of(
                        "Photosynthesis takes place in the chloroplasts of plant cells.",
                        "Light energy is used to split water, releasing oxygen.",
                        "The Calvin cycle then fixes carbon dioxide into sugars.",
                        "Temperature and light intensity both limit the rate of the reaction.",
                        "In our experiment we counted bubbles of oxygen from pondweed at five distances from a lamp."));
        assertThat(screener.screen(essay.repeat(10)).flagged()).isFalse();
        assertThat(screener.screen(essay.repeat(10) + " " + implied).categories())
                .contains(SafetyCategory.SELF_HARM);
    }
}
