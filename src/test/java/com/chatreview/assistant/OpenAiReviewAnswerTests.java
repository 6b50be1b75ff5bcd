package com.chatreview.assistant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** How the openai provider reads a model's review as it streams: analysis out at once, the grade line held. */
class OpenAiReviewAnswerTests {

    private final List<String> streamed = new ArrayList<>();
    private final GradedAnswer answer = new GradedAnswer(streamed::add);

    @Test
    void streamsTheAnalysisAndHoldsBackTheGradeLineHoweverItIsSplit() {
        feed("## The task\nAdd two fr", "actions.\n\n", "The code is ", "correct.\n", "\n", "GRA", "DE", ": ", "B");

        GradedAnswer.Parsed parsed = answer.finish();

        assertThat(parsed.grade()).isEqualTo("B");
        assertThat(parsed.analysis()).isEqualTo("## The task\nAdd two fractions.\n\nThe code is correct.");
        assertThat(String.join("", streamed)).isEqualTo(parsed.analysis());
        assertThat(streamed).noneMatch(token -> token.contains("GRA"));
        assertThat(streamed).startsWith("## The task\nAdd two fr");
    }

    @Test
    void aLineThatOnlyBeganLikeTheGradeLineIsPassedOnOnceItDiffers() {
        feed("Intro\n", "GRA", "DEBOOK entries are fine.\n", "  GR", "ADING is hard\nGRADE: A\n\n");

        GradedAnswer.Parsed parsed = answer.finish();

        assertThat(parsed.analysis()).isEqualTo("Intro\nGRADEBOOK entries are fine.\n  GRADING is hard");
        assertThat(streamed).containsExactly("Intro", "\nGRADEBOOK entries are fine.", "\n  GRADING is hard");
        assertThat(parsed.grade()).isEqualTo("A");
    }

    @Test
    void toleratesSpacesAroundTheGradeButNothingElse() {
        feed("Fine work.\n   GRADE:C  \n");

        assertThat(answer.finish().grade()).isEqualTo("C");
    }

    @ParameterizedTest
    @ValueSource(strings = {"GRADE: A+", "GRADE: G", "GRADE: B (good)", "GRADE: b", "GRADE:"})
    void aGradeLineWithoutOneLetterAToFIsNotAReview(String gradeLine) {
        feed("Analysis.\n" + gradeLine);

        assertThatThrownBy(answer::finish)
                .isInstanceOf(AssistantFailure.class)
                .hasMessageContaining("could not be read as a review")
                .hasMessageContaining("does not give one letter A to F");
    }

    @Test
    void anAnswerWithoutAGradeLineIsNotAReview() {
        feed("The code is fine.\nGrade: B\n**GRADE: B**");

        assertThatThrownBy(answer::finish)
                .isInstanceOf(AssistantFailure.class)
                .hasMessage("The AI provider's answer could not be read as a review: it has no final line 'GRADE: X'");
    }

    @Test
    void twoGradeLinesAreNotAReview() {
        feed("GRADE: A\nOn second thought.\nGRADE: C\n");

        assertThatThrownBy(answer::finish)
                .isInstanceOf(AssistantFailure.class)
                .hasMessageContaining("2 lines starting with GRADE:");
    }

    @Test
    void textAfterTheGradeLineIsNotAReview() {
        feed("Good.\nGRADE: A\nLet me know if you have questions.");

        assertThatThrownBy(answer::finish)
                .isInstanceOf(AssistantFailure.class)
                .hasMessageContaining("its GRADE: line is not the last line");
    }

    @Test
    void aGradeWithoutAnAnalysisIsNotAReview() {
        feed("\n  \nGRADE: A");

        assertThatThrownBy(answer::finish)
                .isInstanceOf(AssistantFailure.class)
                .hasMessageContaining("it has a grade but no analysis");
        assertThat(streamed).isEmpty();
    }

    private void feed(String... pieces) {
        for (String piece : pieces) {
            answer.accept(piece);
        }
    }
}
