package com.chatreview.assistant;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.assistant.Conversation.Turn;
import com.chatreview.meaning.SentenceModel;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A review chat's question whose words name nothing of the review is matched by meaning against its criteria and
 * findings, with the service's sentence model (docs/review-rubric.md, Questions in the review chat).
 */
class ReviewQuestionsByMeaningTests {

    static final OfflineAssistant ASSISTANT =
            new OfflineAssistant(Duration.ZERO, OfflineAssistant.proseMeaning(SentenceModel.inProcess()));
    static final OfflineAssistant WITHOUT_MODEL = new OfflineAssistant(Duration.ZERO);

    @Test
    void aQuestionAboutACriterionInOtherWordsGetsThatCriterion() {
        assertThat(ask(ASSISTANT, "is anything missing from what I handed in?"))
                .contains("**Hands in what was asked**");
        assertThat(ask(ASSISTANT, "Did I actually solve what the exercise wanted?"))
                .containsAnyOf("**Solves the task**", "similar to the reference solution");
    }

    /** "Why" asks for the grade, with every criterion; the one the question is about in meaning comes after it. */
    @Test
    void aWhyQuestionAboutOneCriterionGetsTheGradeAndThatCriterion() {
        String answer = ask(ASSISTANT, "why is my answer not complete?");

        assertThat(answer).contains(ReviewQuestionsTests.GRADE);
        assertThat(answer.split("\\*\\*Hands in what was asked\\*\\*", -1))
                .as("the criterion in the grade's list, and again on its own")
                .hasSize(3);
        assertThat(ask(WITHOUT_MODEL, "why is my answer not complete?")
                        .split("\\*\\*Hands in what was asked\\*\\*", -1))
                .as("without a model: the grade alone")
                .hasSize(2);
    }

    @Test
    void aQuestionAboutAFindingInOtherWordsGetsThatFinding() {
        assertThat(ask(ASSISTANT, "Was it wrong to call the function from inside itself?"))
                .contains("fractions.py:5")
                .contains("Breaks “No recursion.”");
    }

    @Test
    void aQuestionAboutNothingOfTheReviewStillGetsTheExamplesAsWithoutAModel() {
        assertThat(ask(ASSISTANT, "What is the capital of France?")).contains(ReviewQuestionsTests.HELP);
        assertThat(ask(WITHOUT_MODEL, "is anything missing from what I handed in?"))
                .contains(ReviewQuestionsTests.HELP);
    }

    private static String ask(OfflineAssistant assistant, String question) {
        return assistant.compose(new Conversation(
                List.of(new Turn(Turn.Role.USER, question)),
                ReviewQuestionsTests.CONTEXT,
                ReviewQuestionsTests.VERDICT));
    }
}
